#include "aerun/sched/scheduler_client.hpp"

#include "sched/pbs_client.hpp"
#include "sched/slurm_client.hpp"

namespace aerun {

const JobReport* QueryResult::find(const std::string& job_id) const {
  for (const auto& j : jobs)
    if (j.job_id == job_id) return &j;
  return nullptr;
}

std::unique_ptr<SchedulerClient> make_scheduler_client(Scheduler s) {
  if (s == Scheduler::Slurm) return std::make_unique<SlurmClient>();
  if (s == Scheduler::Pbs) return std::make_unique<PbsClient>();
  throw InputError(SourceLoc{}, "--scheduler", "no batch scheduler chosen (slurm or pbs)");
}

}  // namespace aerun
