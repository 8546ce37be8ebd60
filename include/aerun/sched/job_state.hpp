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
// docs/schedulers.md ("How scheduler states map to run statuses") gives the tables with sources.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace aerun {

// What a scheduler state means for a run.
struct RunState {
  std::string status;     // one of the words above
  bool finished = false;  // the job is over: collect it
};

// One word Slurm prints for a job's state (squeue -O State / %T, scontrol JobState=, sacct
// State) with its compact form (squeue %t), what Slurm means by it and aerun's meaning.
struct SlurmStateWord {
  std::string_view word;     // "OUT_OF_MEMORY"
  std::string_view compact;  // "OOM" ("" when Slurm has none)
  std::string_view status;   // aerun's word
  bool finished;
  std::string_view slurm_meaning;  // Slurm's own comment for the state or flag
};

// Every word of Slurm's job_state_string(), job_state_string_compact() and
// job_state_string_complete() from Slurm 1.0 to 26.05 (src/common/slurm_protocol_defs.c),
// flags first in job_state_string()'s order of precedence.
std::span<const SlurmStateWord> slurm_state_words();

// Slurm's state word -> RunState. Accepts "CANCELLED by 0" (sacct: the first word decides) and
// job_state_string_complete()'s "PENDING,REQUEUED" (the word job_state_string() would print
// decides). An unknown word counts as still active ("running", never finished) and is reported
// once per word per process on stderr: "aerun: warning: unknown Slurm job state 'WORD' ...".
RunState slurm_run_state(const std::string& state);

// Slurm's exit code field as squeue prints it: "exit:signal" since Slurm 23.02 (`0:9`, as
// scontrol's ExitCode= and sacct's ExitCode), or the raw wait(2) status before (22.05: `256` is
// exit 1, `9` is SIGKILL). Empty/unparsable -> both unset.
struct ExitAndSignal {
  std::optional<int> exit_code;
  std::optional<int> signal;
};
ExitAndSignal parse_slurm_exit_code(const std::string& field);

// One PBS Exit_status value: its OpenPBS name (src/include/job.h, JOB_EXEC_*), what the source
// says it means, and aerun's meaning when a finished job carries it.
struct PbsExitCode {
  int code;
  std::string_view name;
  std::string_view status;
  std::string_view pbs_meaning;
};
// Every special (<= 0) Exit_status of OpenPBS's job.h.
std::span<const PbsExitCode> pbs_exit_codes();

// PBS Pro / OpenPBS: job_state (T Q H W R E B S U X F M), substate and Exit_status; `comment`
// distinguishes a deleted job that had been held after too many failed launches.
//   Q, H, W, T, M -> pending; R, E, B, S, U -> running;
//   F, X (finished): substate 91 (JOB_SUBSTATE_TERMINATED: deleted by qdel) -> cancelled, or
//   launch_failed when Exit_status is a launch failure (-3 JOB_EXEC_RETRY, ...) or the comment
//   says "too many failed attempts to run"; no Exit_status -> cancelled (deleted before it ran);
//   Exit_status 0 -> ok, 1..256 -> failed, > 256 -> failed (signal Exit_status - 256),
//   negative -> pbs_exit_codes().
RunState pbs_run_state(const std::string& job_state, std::optional<int> substate,
                       std::optional<int> exit_status, const std::string& comment = {});

}  // namespace aerun
