// Scheduler names.
#include "aerun/util/scheduler_kind.hpp"

#include "aerun/util/error.hpp"

namespace aerun {

std::string to_string(Scheduler s) {
  switch (s) {
    case Scheduler::Pbs:
      return "pbs";
    case Scheduler::Slurm:
      return "slurm";
    case Scheduler::None:
      break;
  }
  return "none";
}

Scheduler parse_scheduler(const std::string& name, const std::string& key) {
  if (name == "pbs") return Scheduler::Pbs;
  if (name == "slurm") return Scheduler::Slurm;
  if (name == "none" || name == "local") return Scheduler::None;
  throw InputError(SourceLoc{}, key, "unknown scheduler '" + name + "'; use pbs, slurm or none");
}

}  // namespace aerun
