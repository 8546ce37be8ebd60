// The registered scheduler backends (one file each: <name>_backend.cpp) and what they share.
#pragma once

#include <string>

#include "aerun/sched/scheduler_backend.hpp"
#include "sched/job_script.hpp"  // format_walltime

namespace aerun {

const SchedulerBackend& slurm_backend();
const SchedulerBackend& pbs_backend();
const SchedulerBackend& local_backend();
const SchedulerBackend& lsf_backend();
const SchedulerBackend& flux_backend();

}  // namespace aerun
