// Slurm's job state words and exit code field, in aerun's words (job_state.hpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "aerun/sched/job_state.hpp"

namespace aerun {

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

}  // namespace aerun
