// The registered scheduler backends (one file each: <name>_backend.cpp) and what they share.
#pragma once

#include <string>

#include "aerun/sched/scheduler_backend.hpp"
#include "sched/job_script.hpp"  // format_walltime

namespace aerun {

const SchedulerBackend& slurm_backend();
const SchedulerBackend& pbs_backend();
const SchedulerBackend& local_backend();

// "slurm or pbs": the batch schedulers' names, for messages.
std::string batch_scheduler_names();

}  // namespace aerun
