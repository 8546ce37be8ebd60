// The scheduler backends by name: adding a scheduler is its backend's files and one line here.
#include <algorithm>
#include <array>

#include "sched/scheduler_backends.hpp"

namespace aerun {

namespace {

const std::array<const SchedulerBackend*, 5>& registry() {
  static const std::array<const SchedulerBackend*, 5> all{
      &slurm_backend(), &pbs_backend(), &lsf_backend(), &flux_backend(), &local_backend()};
  return all;
}

}  // namespace

std::span<const SchedulerBackend* const> scheduler_backends() {
  return registry();
}

const SchedulerBackend& scheduler_backend(Scheduler s) {
  for (const SchedulerBackend* b : registry())
    if (b->kind() == s) return *b;
  return local_backend();
}

const SchedulerBackend* find_scheduler_backend(std::string_view name) {
  for (const SchedulerBackend* b : registry())
    if (b->name() == name) return b;
  return nullptr;
}

}  // namespace aerun
