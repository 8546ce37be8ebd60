#include "aerun/sched/pbs_states.hpp"

#include <array>

#include "aerun/judge/run_status.hpp"

namespace aerun {

namespace {

// OpenPBS src/include/job.h (openpbs/openpbs cd7ab5eda), "Special Job Exit Values, Set by the job
// starter (child of MOM)"; what the server does with each: src/server/req_jobobit.c job_obit().
// A finished job carries one of these as Exit_status when it ended that way.
constexpr std::array<PbsExitCode, 29> kPbsExit{{
    {0, "JOB_EXEC_OK", run_status::ok, "job exec successfull"},
    {-1, "JOB_EXEC_FAIL1", run_status::launch_failed, "Job exec failed, before files, no retry"},
    {-2, "JOB_EXEC_FAIL2", run_status::launch_failed, "Job exec failed, after files, no retry"},
    {-3, "JOB_EXEC_RETRY", run_status::launch_failed,
     "Job execution failed, do retry (requeued; held after too many failed attempts)"},
    {-4, "JOB_EXEC_INITABT", run_status::node_failure, "Job aborted on MOM initialization"},
    {-5, "JOB_EXEC_INITRST", run_status::node_failure,
     "Job aborted on MOM init, chkpt, no migrate"},
    {-6, "JOB_EXEC_INITRMG", run_status::node_failure,
     "Job aborted on MOM init, chkpt, ok migrate"},
    {-7, "JOB_EXEC_BADRESRT", run_status::launch_failed, "Job restart failed"},
    // -8, -9: not defined (any other negative value -> failed).
    {-10, "JOB_EXEC_FAILUID", run_status::launch_failed, "invalid uid/gid for job"},
    {-11, "JOB_EXEC_RERUN", run_status::interrupted,
     "Job rerun (a non-rerunable job is deleted on requeue)"},
    {-12, "JOB_EXEC_CHKP", run_status::interrupted, "Job was checkpointed and killed"},
    {-13, "JOB_EXEC_FAIL_PASSWORD", run_status::launch_failed, "Job failed due to a bad password"},
    {-14, "JOB_EXEC_RERUN_SIS_FAIL", run_status::node_failure, "Job rerun (a sister MOM failed)"},
    {-15, "JOB_EXEC_QUERST", run_status::interrupted, "requeue job for restart from checkpoint"},
    {-16, "JOB_EXEC_FAILHOOK_RERUN", run_status::launch_failed,
     "job exec failed due to a hook rejection, requeue job for later retry"},
    {-17, "JOB_EXEC_FAILHOOK_DELETE", run_status::launch_failed,
     "job exec failed due to a hook rejection, delete the job at end"},
    {-18, "JOB_EXEC_HOOK_RERUN", run_status::interrupted,
     "a hook requested for job to be requeued"},
    {-19, "JOB_EXEC_HOOK_DELETE", run_status::cancelled, "a hook requested for job to be deleted"},
    {-20, "JOB_EXEC_RERUN_MS_FAIL", run_status::node_failure, "Mother superior connection failed"},
    {-21, "JOB_EXEC_FAIL_SECURITY", run_status::launch_failed, "Security breach in PBS directory"},
    {-22, "JOB_EXEC_HOOKERROR", run_status::launch_failed,
     "job exec failed due to unexpected exception or hook execution timed out"},
    {-23, "JOB_EXEC_FAIL_KRB5", run_status::launch_failed,
     "Error no kerberos credentials supplied"},
    {-24, "JOB_EXEC_KILL_NCPUS_BURST", run_status::failed,
     "job exec failed due to exceeding ncpus (burst)"},
    {-25, "JOB_EXEC_KILL_NCPUS_SUM", run_status::failed,
     "job exec failed due to exceeding ncpus (sum)"},
    {-26, "JOB_EXEC_KILL_VMEM", run_status::host_oom, "job exec failed due to exceeding vmem"},
    {-27, "JOB_EXEC_KILL_MEM", run_status::host_oom, "job exec failed due to exceeding mem"},
    {-28, "JOB_EXEC_KILL_CPUT", run_status::timeout, "job exec failed due to exceeding cput"},
    {-29, "JOB_EXEC_KILL_WALLTIME", run_status::timeout,
     "job exec failed due to exceeding walltime"},
    {-30, "JOB_EXEC_JOINJOB", run_status::launch_failed,
     "Job exec failed due to join job error (the server retries it as JOB_EXEC_RETRY)"},
}};

const PbsExitCode* find_exit(int code) {
  for (const auto& row : kPbsExit)
    if (row.code == code) return &row;
  return nullptr;
}

}  // namespace

std::span<const PbsExitCode> pbs_exit_codes() {
  return kPbsExit;
}

RunState pbs_run_state(const std::string& job_state, std::optional<int> substate,
                       std::optional<int> exit_status, const std::string& comment) {
  // Letters: OpenPBS src/include/job.h JOB_STATE_LTR_*; PBS Pro Reference Guide "Job States".
  if (job_state == "Q" || job_state == "H" || job_state == "W" || job_state == "T")
    return {run_status::pending, false};  // queued, held, waiting for its start time, in transit
  if (job_state == "M") return {run_status::pending, false};  // moved to another server (history)
  if (job_state == "R" || job_state == "E" || job_state == "B" || job_state == "S" ||
      job_state == "U")
    return {run_status::running,
            false};  // running, exiting, array begun, suspended, user-suspended
  if (job_state != "F" && job_state != "X") {
    warn_unknown_once("PBS", job_state);
    return {run_status::running, false};
  }
  // Finished (F) or a finished subjob (X).
  const PbsExitCode* code = exit_status ? find_exit(*exit_status) : nullptr;
  // The server's comment when it held a job after repeated JOB_EXEC_RETRY
  // (src/server/req_runjob.c check_failed_attempts): "job held, too many failed attempts to run".
  const bool held_after_retries =
      comment.find("too many failed attempts to run") != std::string::npos;
  // JOB_SUBSTATE_TERMINATED (91): deleted by a delete request (src/server/svr_jobfunc.c
  // svr_setjob_histinfo: ji_terminated, set by req_delete.c). A qdel of a job that never could
  // be launched is a launch failure; any other deletion is a cancellation.
  if (substate && *substate == 91) {
    if (held_after_retries || (code && code->status == run_status::launch_failed))
      return {run_status::launch_failed, true};
    return {run_status::cancelled, true};
  }
  if (!exit_status)
    return {held_after_retries ? run_status::launch_failed : run_status::cancelled, true};
  const int e = *exit_status;
  if (e == 0) return {run_status::ok, true};
  if (e > 0) return {run_status::failed, true};  // 1..255 the script's exit; > 256 signal e - 256
  if (code) return {std::string(code->status), true};
  return {run_status::failed, true};
}

}  // namespace aerun
