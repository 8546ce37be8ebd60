#include "aerun/job_state.hpp"

#include <array>
#include <string_view>

namespace aerun {

RunState slurm_run_state(const std::string& state) {
  // "CANCELLED by 0" appears in scontrol output: the first word decides.
  const std::string_view s = std::string_view(state).substr(0, state.find(' '));
  static constexpr std::array<std::string_view, 8> pending{
      "PENDING",     "CONFIGURING",   "REQUEUED",          "REQUEUE_HOLD",
      "REQUEUE_FED", "RESV_DEL_HOLD", "SPECIAL_EXIT_HOLD", "STOPPED"};
  for (auto p : pending)
    if (s == p) return {"pending", false};
  if (s == "COMPLETED") return {"ok", true};
  if (s == "FAILED" || s == "SPECIAL_EXIT") return {"failed", true};
  if (s == "TIMEOUT" || s == "DEADLINE") return {"timeout", true};
  if (s == "OUT_OF_MEMORY") return {"oom", true};
  if (s == "NODE_FAIL" || s == "BOOT_FAIL") return {"node_fail", true};
  if (s == "CANCELLED" || s == "REVOKED") return {"cancelled", true};
  if (s == "PREEMPTED") return {"interrupted", true};
  return {"running", false};  // RUNNING, COMPLETING, SUSPENDED, SIGNALING, STAGE_OUT, ...
}

RunState pbs_run_state(const std::string& job_state, std::optional<int> substate,
                       std::optional<int> exit_status) {
  if (job_state == "Q" || job_state == "H" || job_state == "W" || job_state == "T" ||
      job_state == "M")
    return {"pending", false};
  if (job_state != "F" && job_state != "X") return {"running", false};  // R, E, B, S, U
  if (substate && *substate == 91) return {"cancelled", true};
  if (!exit_status) return {"cancelled", true};  // deleted before it ran
  const int e = *exit_status;
  if (e == 0) return {"ok", true};
  if (e == -29) return {"timeout", true};
  if (e == -26 || e == -27) return {"oom", true};
  if (e == -1 || e == -2 || e == -20) return {"node_fail", true};
  return {"failed", true};
}

}  // namespace aerun
