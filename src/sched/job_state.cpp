#include "aerun/job_state.hpp"

#include <array>
#include <iostream>
#include <mutex>
#include <set>
#include <string_view>

namespace aerun {

namespace {

// Every word of Slurm's job_state_string() (src/common/slurm_protocol_defs.c: the state flags,
// tested first, then the base states), and of newer releases, with what it means for a run.
struct SlurmWord {
  std::string_view word;
  RunState state;
};
constexpr std::array<SlurmWord, 27> kSlurmWords{{
    // Not started yet.
    {"PENDING", {"pending", false}},
    {"CONFIGURING", {"pending", false}},    // nodes allocated, booting or being set up
    {"POWER_UP_NODE", {"pending", false}},  // its nodes are powering up
    {"EXPEDITING", {"pending", false}},     // newer Slurm: requeued to run again at once
    {"REQUEUED", {"pending", false}},       // requeued, will run again
    {"REQUEUE_HOLD", {"pending", false}},   // requeued and held
    {"REQUEUE_FED", {"pending", false}},    // requeued by a federation
    {"RESV_DEL_HOLD", {"pending", false}},  // held: its reservation was deleted
    // Running (or still holding its allocation).
    {"RUNNING", {"running", false}},
    {"COMPLETING", {"running", false}},  // ending: processes still being cleaned up
    {"SUSPENDED", {"running", false}},
    {"STOPPED", {"running", false}},    // SIGSTOP'ed, keeps its allocation
    {"SIGNALING", {"running", false}},  // a signal is on its way
    {"STAGE_OUT", {"running", false}},  // burst buffer stage-out after the script
    {"RESIZING", {"running", false}},
    {"UPDATE_DB", {"running", false}},      // its state is being sent to the database
    {"RECONFIG_FAIL", {"running", false}},  // node reconfiguration failed; Slurm decides next
    // Finished.
    {"COMPLETED", {"ok", true}},
    {"FAILED", {"failed", true}},
    {"SPECIAL_EXIT", {"failed", true}},  // requeued in a special state by an epilog on failure
    {"TIMEOUT", {"timeout", true}},
    {"DEADLINE", {"timeout", true}},        // --deadline reached
    {"OUT_OF_MEMORY", {"host_oom", true}},  // the job's memory limit (cgroup)
    {"NODE_FAIL", {"node_failure", true}},
    {"BOOT_FAIL", {"launch_failed", true}},  // its nodes could not be booted: never ran
    {"CANCELLED", {"cancelled", true}},
    {"REVOKED", {"cancelled", true}},  // a federation sibling started instead
}};
constexpr SlurmWord kPreempted{"PREEMPTED", {"interrupted", true}};

}  // namespace

RunState slurm_run_state(const std::string& state) {
  // "CANCELLED by 0" appears in scontrol output: the first word decides.
  const std::string_view s = std::string_view(state).substr(0, state.find(' '));
  if (s == kPreempted.word) return kPreempted.state;
  for (const auto& w : kSlurmWords)
    if (s == w.word) return w.state;
  // A word this aerun does not know: kept verbatim by the caller, never taken for finished.
  static std::mutex m;
  static std::set<std::string, std::less<>> warned;
  const std::lock_guard lock(m);
  if (warned.emplace(s).second)
    std::cerr << "aerun: warning: unknown Slurm job state '" << s << "': treated as still active\n";
  return {"running", false};
}

RunState pbs_run_state(const std::string& job_state, std::optional<int> substate,
                       std::optional<int> exit_status) {
  if (job_state == "Q" || job_state == "H" || job_state == "W" || job_state == "T" ||
      job_state == "M")
    return {"pending", false};
  if (job_state != "F" && job_state != "X") return {"running", false};  // R, E, B, S, U
  // OpenPBS src/include/job.h: JOB_EXEC_RETRY (-3) is a job held, then ended after repeated
  // launch failures on its node(s) — it never ran.
  if (exit_status && *exit_status == -3) return {"launch_failed", true};
  // JOB_SUBSTATE_TERMINATED (91): deleted with qdel while running (Exit_status 271: SIGTERM).
  if (substate && *substate == 91) return {"cancelled", true};
  if (!exit_status) return {"cancelled", true};  // deleted (qdel) before it ran
  const int e = *exit_status;
  if (e == 0) return {"ok", true};
  if (e > 0) return {"failed", true};  // the script's status; > 256: killed by signal e - 256
  // Negative: PBS ended the job itself. OpenPBS src/include/job.h, JOB_EXEC_*:
  switch (e) {
    case -29:  // KILL_WALLTIME
    case -28:  // KILL_CPUT
      return {"timeout", true};
    case -26:  // KILL_VMEM
    case -27:  // KILL_MEM
      return {"host_oom", true};
    case -1:   // FAIL1: exec failed before files, no retry
    case -2:   // FAIL2: exec failed after files, no retry
    case -20:  // RERUN_MS_FAIL: mother superior connection failed
      return {"node_failure", true};
    case -11:  // RERUN
    case -12:  // CHKP: checkpointed and killed
    case -14:  // RERUN_SIS_FAIL
    case -15:  // QUERST: requeued for restart from checkpoint
    case -16:  // FAILHOOK_RERUN
    case -18:  // HOOK_RERUN
      return {"interrupted", true};
    case -17:  // FAILHOOK_DELETE
    case -19:  // HOOK_DELETE
      return {"cancelled", true};
    case -4:   // INITABT: aborted on MoM initialisation
    case -5:   // INITRST
    case -6:   // INITRMG
    case -7:   // BADRESRT: restart failed
    case -10:  // FAILUID: invalid uid/gid
    case -13:  // FAIL_PASSWORD
    case -21:  // FAIL_SECURITY
    case -22:  // HOOKERROR
    case -23:  // FAIL_KRB5
    case -30:  // JOINJOB
      return {"launch_failed", true};
    default:
      break;
  }
  return {"failed", true};
}

}  // namespace aerun
