// The allocation readers, in the order a job's variables are tried (one line per scheduler).
#include "cluster/allocation_readers.hpp"

namespace aerun {

const std::vector<const AllocationReader*>& allocation_readers() {
  static const std::vector<const AllocationReader*> readers = {
      &slurm_allocation(), &pbs_allocation(), &lsf_allocation()};
  return readers;
}

const AllocationReader* allocation_reader(Scheduler kind) {
  for (const AllocationReader* r : allocation_readers())
    if (r->kind() == kind) return r;
  return nullptr;
}

}  // namespace aerun
