// A PBS job's allocation: PBS_JOBID and the node file PBS writes (one line per chunk's host, per
// MPI process: PBS Professional Reference Guide, "PBS_NODEFILE"); on ALCF's Aurora, the GPUs its
// nodes have.
#include "aerun/util/error.hpp"
#include "cluster/allocation_readers.hpp"

namespace aerun {

namespace {

class PbsAllocation final : public AllocationReader {
 public:
  Scheduler kind() const override { return Scheduler::Pbs; }
  std::optional<std::string> job_id(const EnvLookup& env) const override {
    return env("PBS_JOBID");
  }
  std::string hostfile(const EnvLookup& env) const override {
    const std::string path = env("PBS_NODEFILE").value_or("");
    if (path.empty())
      throw InputError(SourceLoc{}, "scheduler",
                       "pbs: PBS_NODEFILE is not set (run inside a job, or give --hostfile)");
    return path;
  }
  // A job on Aurora's PBS server: 6 Intel Max 1550 GPUs a node, 2 tiles each (ALCF's Aurora
  // machine overview), when xpu-smi did not answer.
  std::optional<Gpus> gpus_per_node(const EnvLookup& env, bool flat) const override {
    if (const auto job = env("PBS_JOBID"); job && job->find(".aurora") != std::string::npos)
      return Gpus{flat ? 12 : 6, "aurora"};
    return std::nullopt;
  }
};

}  // namespace

const AllocationReader& pbs_allocation() {
  static const PbsAllocation reader;
  return reader;
}

}  // namespace aerun
