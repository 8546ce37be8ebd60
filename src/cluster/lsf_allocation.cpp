// An LSF job's allocation: LSB_JOBID and the host file of one line per slot (IBM LSF 10.1,
// "Environment variables set for job execution": LSB_DJOB_HOSTFILE).
#include "cluster/allocation_readers.hpp"

namespace aerun {

namespace {

class LsfAllocation final : public AllocationReader {
 public:
  Scheduler kind() const override { return Scheduler::Lsf; }
  std::optional<std::string> job_id(const EnvLookup& env) const override {
    return env("LSB_JOBID");
  }
  std::string hostfile(const EnvLookup& env) const override {
    return env("LSB_DJOB_HOSTFILE").value_or("");
  }
};

}  // namespace

const AllocationReader& lsf_allocation() {
  static const LsfAllocation reader;
  return reader;
}

}  // namespace aerun
