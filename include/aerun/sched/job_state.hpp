// Scheduler job states in aerun's words. The scheduler's own word is kept beside it in the store
// (scheduler_state), with its reason; the run judge (run_judge.hpp) receives the meaning as
// RunEvidence::scheduler_status.
//
// The words (RunState::status), and nothing else:
//   not finished: pending, running
//   finished:     ok, failed, timeout, cancelled, interrupted (preempted, requeued),
//                 host_oom (the scheduler's memory limit: Slurm OUT_OF_MEMORY, PBS mem/vmem
//                 kills), node_failure, launch_failed (the scheduler could not start the job),
//                 lost (set by the follower when a job leaves the queue unexplained).
// docs/schedulers.md ("How scheduler states map to run statuses") gives the tables with sources;
// each scheduler's words are in its own files (slurm_states.hpp, pbs_states.hpp).
#pragma once

#include <string>

namespace aerun {

// What a scheduler state means for a run.
struct RunState {
  std::string status;     // one of the words above
  bool finished = false;  // the job is over: collect it
};

// Reports an unknown scheduler word once per word per process on stderr ("aerun: warning: unknown
// <scheduler> job state 'WORD': kept as it is and treated as still active").
void warn_unknown_once(const std::string& scheduler, const std::string& word);

}  // namespace aerun
