// IBM Spectrum LSF job states (bjobs STAT) and termination reasons (EXIT_REASON's TERM_*), in
// aerun's words (job_state.hpp). Sources: IBM LSF 10.1 "LSF terms and concepts" (the states) and
// "Termination reasons displayed by bacct, bhist, and bjobs" (lsf_admin/termination_reasons_lsf),
// both cited row by row in lsf_states.cpp; docs/schedulers.md gives the tables.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "aerun/sched/job_state.hpp"

namespace aerun {

// One bjobs STAT word: IBM's meaning and aerun's.
struct LsfStateWord {
  std::string_view word;  // "PEND"
  std::string_view status;
  bool finished;
  std::string_view lsf_meaning;
};
std::span<const LsfStateWord> lsf_state_words();

// One termination reason: LSF's keyword, the number lsb.acct logs, IBM's meaning, aerun's status.
struct LsfTermReason {
  std::string_view keyword;  // "TERM_RUNLIMIT"
  int code;
  std::string_view status;
  std::string_view lsf_meaning;
};
std::span<const LsfTermReason> lsf_term_reasons();

// STAT and EXIT_REASON (e.g. "TERM_RUNLIMIT: job killed after reaching LSF run time limit",
// empty when none) -> RunState. EXIT is `failed` unless its reason says more (a run limit is a
// timeout, a memory limit host_oom, a kill by its owner cancelled, ...); an unknown word counts
// as still active and is reported once.
RunState lsf_run_state(const std::string& stat, const std::string& exit_reason);

}  // namespace aerun
