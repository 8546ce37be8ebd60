// Scheduler job states in aerun's words: pending, running, and the statuses a finished run gets
// (ok, failed, timeout, host_oom, node_failure, launch_failed, cancelled, interrupted; the judge,
// run_judge.hpp, weighs them against the log). The scheduler's own word is kept beside it in the
// store (scheduler_state), with its reason.
#pragma once

#include <optional>
#include <string>

namespace aerun {

// What a scheduler state means for a run.
struct RunState {
  std::string status;     // pending | running | ok | failed | timeout | host_oom |
                          // node_failure | launch_failed | cancelled | interrupted
  bool finished = false;  // the job is over: collect it
};

// Slurm's job state words (squeue %T, scontrol JobState): every word of job_state_string() in
// src/common/slurm_protocol_defs.c and of newer releases (EXPEDITING, POWER_UP_NODE, ...) has its
// row in job_state.cpp. An unknown word counts as still running (never as finished) and is
// reported once per process on stderr.
RunState slurm_run_state(const std::string& state);

// PBS Pro / OpenPBS: job_state (Q, H, W, T, S, U, R, E, B, X, F, M), substate and Exit_status.
// F/X finished: Exit_status 0 -> ok, > 0 -> failed (> 256: killed by signal status - 256), and
// PBS's own JOB_EXEC_* codes (OpenPBS src/include/job.h): -29 walltime / -28 cput -> timeout,
// -26 vmem / -27 mem -> host_oom, -1/-2/-20 -> node_failure, -3 (retried launches, then held)
// and the other start failures -> launch_failed, requeues -> interrupted; substate 91
// (terminated by qdel) or no Exit_status -> cancelled.
RunState pbs_run_state(const std::string& job_state, std::optional<int> substate,
                       std::optional<int> exit_status);

}  // namespace aerun
