#include "aerun/sched/lsf_states.hpp"

#include <array>

#include "aerun/judge/run_status.hpp"

namespace aerun {

namespace {

// IBM LSF 10.1, "LSF terms and concepts", job states (quoted):
// https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_admin/terms.html. PROV: "the job is waiting for
// its hosts to be provisioned" (LSF_EVENTS JOB_STATUS bit 131072). EXIT can go back to PEND for a
// job LSF requeues (REQUEUE_EXIT_VALUES): the follower sees PEND again, never a second end.
constexpr std::array<LsfStateWord, 13> kLsfWords{{
    {"PEND", run_status::pending, false, "Waiting in a queue for scheduling and dispatch."},
    {"PROV", run_status::pending, false, "Waiting for its hosts to be provisioned."},
    {"WAIT", run_status::pending, false,
     "For jobs submitted to a chunk job queue, members of a chunk job that are waiting to run."},
    {"PSUSP", run_status::pending, false, "Suspended while the job is pending."},
    {"RUN", run_status::running, false, "Dispatched to a host and running."},
    {"USUSP", run_status::running, false, "Suspended by user."},
    {"SSUSP", run_status::running, false, "Suspended by the LSF system."},
    {"UNKWN", run_status::running, false,
     "The mbatchd daemon lost contact with the sbatchd daemon on the host where the job runs."},
    {"DONE", run_status::ok, true, "Finished normally with zero exit value."},
    {"POST_DONE", run_status::ok, true, "Post-processing completed without errors."},
    {"EXIT", run_status::failed, true, "Finished with nonzero exit value."},
    {"POST_ERR", run_status::failed, true, "Post-processing completed with errors."},
    {"ZOMBI", run_status::node_failure, true,
     "A job is in ZOMBI state if the job is killed when its state is UNKWN since the execution "
     "host is unreachable, or if a re-runnable job is requeued since the execution host is "
     "unavailable."},
}};

// IBM LSF 10.1, "Termination reasons displayed by bacct, bhist, and bjobs":
// https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_admin/termination_reasons_lsf.html (the numbers are
// those lsb.acct logs; 24 and 31 from lsbatch.h). A reason that is not a failure of the run
// itself says so: a limit, a kill by a person, preemption, a lost host, a job that never started.
constexpr std::array<LsfTermReason, 35> kTermReasons{{
    {"TERM_UNKNOWN", 0, run_status::failed, "LSF cannot determine a termination reason"},
    {"TERM_PREEMPT", 1, run_status::interrupted, "Job killed after preemption"},
    {"TERM_WINDOW", 2, run_status::interrupted, "Job killed after queue run window closed"},
    {"TERM_LOAD", 3, run_status::interrupted, "Job killed after load exceeds threshold"},
    {"TERM_OTHER", 4, run_status::interrupted,
     "Member of a chunk job in WAIT state killed and requeued after being switched to another "
     "queue"},
    {"TERM_RUNLIMIT", 5, run_status::timeout, "Job killed after reaching LSF run time limit"},
    {"TERM_DEADLINE", 6, run_status::timeout, "Job killed after deadline expires"},
    {"TERM_PROCESSLIMIT", 7, run_status::failed, "Job killed after reaching LSF process limit"},
    {"TERM_FORCE_OWNER", 8, run_status::cancelled, "Job killed by owner without time for cleanup"},
    {"TERM_FORCE_ADMIN", 9, run_status::cancelled,
     "Job killed by root or LSF administrator without time for cleanup"},
    {"TERM_REQUEUE_OWNER", 10, run_status::interrupted, "Job killed and requeued by owner"},
    {"TERM_REQUEUE_ADMIN", 11, run_status::interrupted,
     "Job killed and requeued by root or LSF administrator"},
    {"TERM_CPULIMIT", 12, run_status::timeout, "Job killed after reaching LSF CPU usage limit"},
    {"TERM_CHKPNT", 13, run_status::interrupted, "Job killed after checkpointing"},
    {"TERM_OWNER", 14, run_status::cancelled, "Job killed by owner"},
    {"TERM_ADMIN", 15, run_status::cancelled, "Job killed by root or LSF administrator"},
    {"TERM_MEMLIMIT", 16, run_status::host_oom, "Job killed after reaching LSF memory usage limit"},
    {"TERM_EXTERNAL_SIGNAL", 17, run_status::failed, "Job killed by a signal external to LSF"},
    {"TERM_RMS", 18, run_status::node_failure, "Job exited from an RMS system error"},
    {"TERM_ZOMBIE", 19, run_status::node_failure, "Job exited while LSF is not available"},
    {"TERM_SWAP", 20, run_status::host_oom, "Job killed after reaching LSF swap usage limit"},
    {"TERM_THREADLIMIT", 21, run_status::failed, "Job killed after reaching LSF thread limit"},
    {"TERM_SLURM", 22, run_status::node_failure,
     "Job terminated abnormally in SLURM (node failure)"},
    {"TERM_BUCKET_KILL", 23, run_status::cancelled, "Job killed with bkill -b"},
    {"TERM_CTRL_PID", 24, run_status::failed, "Job terminated after control PID died"},
    {"TERM_CWD_NOTEXIST", 25, run_status::launch_failed,
     "Current working directory is not accessible or does not exist on the execution host"},
    {"TERM_REMOVE_HUNG_JOB", 26, run_status::node_failure, "Job removed from LSF"},
    {"TERM_ORPHAN_SYSTEM", 27, run_status::cancelled,
     "The orphan job was automatically terminated by LSF"},
    {"TERM_PRE_EXEC_FAIL", 28, run_status::launch_failed,
     "Job killed after reaching pre-execution retry limit"},
    {"TERM_DATA", 29, run_status::launch_failed, "Job killed by LSF due to failed data staging"},
    {"TERM_MC_RECALL", 30, run_status::interrupted,
     "Job killed by LSF due to multicluster job recall"},
    {"TERM_RC_RECLAIM", 31, run_status::interrupted,
     "Job killed and requeued when an LSF resource connector execution host is reclaimed by EGO"},
    {"TERM_CSM_ALLOC", 32, run_status::node_failure,
     "Job killed by LSF due to CSM allocation API error"},
    {"TERM_KUBE", 33, run_status::failed, "Job killed by LSF due to Kubernetes integration"},
    {"TERM_RC", 34, run_status::interrupted,
     "Job killed by LSF when an LSF resource connector execution host is reclaimed by cloud"},
}};

}  // namespace

std::span<const LsfStateWord> lsf_state_words() {
  return kLsfWords;
}

std::span<const LsfTermReason> lsf_term_reasons() {
  return kTermReasons;
}

RunState lsf_run_state(const std::string& stat, const std::string& exit_reason) {
  const LsfStateWord* word = nullptr;
  for (const auto& w : kLsfWords)
    if (w.word == stat) word = &w;
  if (!word) {
    warn_unknown_once("LSF", stat);
    return {run_status::running, false};
  }
  if (word->status != run_status::failed) return {std::string(word->status), word->finished};
  // "TERM_RUNLIMIT: job killed after ..." (bjobs -o exit_reason); "TERM_SWAPLIMIT" in older
  // LSF's tables is TERM_SWAP: a keyword is matched as the reason's first word's start.
  const std::string keyword = exit_reason.substr(0, exit_reason.find_first_of(": "));
  for (const auto& t : kTermReasons)
    if (!keyword.empty() && keyword.starts_with(t.keyword) &&
        (keyword.size() == t.keyword.size() || t.keyword == "TERM_SWAP"))
      return {std::string(t.status), true};
  return {run_status::failed, true};
}

}  // namespace aerun
