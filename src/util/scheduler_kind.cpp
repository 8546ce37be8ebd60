// Scheduler names.
#include "aerun/util/scheduler_kind.hpp"

#include <array>

#include "aerun/util/error.hpp"

namespace aerun {

namespace {

struct Named {
  Scheduler kind;
  const char* name;
};
constexpr std::array<Named, 4> kBatch{{
    {Scheduler::Slurm, "slurm"},
    {Scheduler::Pbs, "pbs"},
    {Scheduler::Lsf, "lsf"},
    {Scheduler::Flux, "flux"},
}};
constexpr std::array<const char*, 4> kBatchNames{"slurm", "pbs", "lsf", "flux"};

}  // namespace

std::string to_string(Scheduler s) {
  for (const auto& n : kBatch)
    if (n.kind == s) return n.name;
  return "none";
}

Scheduler parse_scheduler(const std::string& name, const std::string& key) {
  for (const auto& n : kBatch)
    if (name == n.name) return n.kind;
  if (name == "none" || name == "local") return Scheduler::None;
  throw InputError(SourceLoc{}, key,
                   "unknown scheduler '" + name + "'; use " + scheduler_choices() + " (or none)");
}

std::span<const char* const> batch_scheduler_names() {
  return kBatchNames;
}

const std::vector<std::string>& case_scheduler_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v(kBatchNames.begin(), kBatchNames.end());
    v.push_back("local");
    return v;
  }();
  return names;
}

std::string scheduler_choices() {
  std::string out;
  for (const char* n : kBatchNames) out += std::string(n) + ", ";
  out.resize(out.size() - 2);
  return out + " or local";
}

}  // namespace aerun
