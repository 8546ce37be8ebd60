// PBS Pro / OpenPBS job states and Exit_status values, in aerun's words (job_state.hpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "aerun/sched/job_state.hpp"

namespace aerun {

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
