// Scheduler job states in aerun's words: pending, running, and the statuses a finished run gets
// (ok, failed, timeout, oom, node_fail, cancelled, interrupted). The scheduler's own word is kept
// beside it in the store (scheduler_state), with its reason.
#pragma once

#include <optional>
#include <string>

namespace aerun {

// What a scheduler state means for a run.
struct RunState {
  std::string status;     // pending | running | ok | failed | timeout | oom | node_fail |
                          // cancelled | interrupted
  bool finished = false;  // the job is over: collect it
};

// Slurm's JOB_STATE words (squeue %T): PENDING, RUNNING, COMPLETING, COMPLETED, FAILED,
// TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, CANCELLED, PREEMPTED, ... An unknown word counts as still
// running (never as finished).
RunState slurm_run_state(const std::string& state);

// PBS Pro: job_state (Q, H, W, T, S, U, R, E, B, X, F, M), substate and Exit_status.
// F/X finished: Exit_status 0 -> ok, 1..255 -> failed, > 256 -> failed (killed by signal
// status - 256), -29 (JOB_EXEC_KILL_WALLTIME) -> timeout, -26/-27 (vmem/mem limit) -> oom,
// -1/-2/-20 (execution failed / mother superior lost) -> node_fail, substate 91 (deleted) or
// no Exit_status -> cancelled.
RunState pbs_run_state(const std::string& job_state, std::optional<int> substate,
                       std::optional<int> exit_status);

}  // namespace aerun
