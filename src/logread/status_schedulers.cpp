// The base vocabulary's scheduler verdicts beyond Slurm's (preset_status.cpp): IBM Spectrum LSF,
// Flux and PBS Pro / OpenPBS / TORQUE, as each writes them into a job's output.
#include "aerun/judge/run_status.hpp"
#include "logread/preset_families.hpp"

namespace aerun::detail {

void add_lsf_flux_pbs_status(const StatusAdder& add) {
  // LSF's job report: "TERM_RUNLIMIT: job killed after reaching LSF run time limit." then
  // "Exited with exit code 140." (IBM Spectrum LSF docs, "Termination reasons"; real reports in
  // marbl/canu#444, #1047, cdanielmachado/carveme#34). The sentence differs from the docs' in
  // real reports ("job killed by root or an administrator."), so the keyword decides.
  add(run_status::timeout, {R"(TERM_(?:RUNLIMIT|DEADLINE|CPULIMIT): )"});
  add(run_status::host_oom, {R"(TERM_(?:MEMLIMIT|SWAP): )"});
  add(run_status::interrupted,
      {R"(TERM_(?:PREEMPT|REQUEUE_OWNER|REQUEUE_ADMIN|CHKPNT|WINDOW|LOAD|MC_RECALL|RC): )"});
  add(run_status::node_failure, {R"(TERM_(?:ZOMBIE|SLURM|REMOVE_HUNG_JOB): )"});
  add(run_status::cancelled,
      {R"(TERM_(?:OWNER|FORCE_OWNER|ADMIN|FORCE_ADMIN|BUCKET_KILL|ORPHAN_SYSTEM): )"});
  add(run_status::launch_failed, {R"(TERM_(?:CWD_NOTEXIST|PRE_EXEC_FAIL|DATA|CSM_ALLOC|KUBE): )"});
  add(run_status::failed, {R"(TERM_(?:THREADLIMIT|PROCESSLIMIT|EXTERNAL_SIGNAL|OTHER): )"});
  // Flux: `flux run` / `flux job attach` print "%.3fs: job.exception %s type=%s severity=%d %s"
  // (flux-core src/cmd/job/attach.c, attach_event_continuation; the job id since v0.69), e.g.
  // "1.029s: job.exception type=timeout severity=0 resource allocation expired"
  // (flux-framework/flux-sched#1084). The time limit: job-exec.c timelimit_cb; a cancel: note
  // empty or "interrupted by ctrl-C" (flux-core#6314); a lost node: bulkexec.c "node failure on
  // %s (rank %d)", before v0.64 "lost contact with job shell on broker %s (rank %d)"; the shell's
  // cgroup OOM: src/shell/oom.c "Memory cgroup out of memory: killed %lu task%s on %s.".
  add(run_status::timeout, {R"(job\.exception (?:\S+ )?type=timeout severity=0)"});
  add(run_status::node_failure,
      {R"(job\.exception (?:\S+ )?type=(?:exec|node-failure) severity=\d+ node failure on \S+ \((?:shell )?rank \d+\))",
       R"(lost contact with job shell on )"});
  add(run_status::cancelled, {R"(job\.exception (?:\S+ )?type=cancel severity=0)"});
  add(run_status::host_oom, {R"(Memory cgroup out of memory: killed \d+ task)"});
  add(run_status::launch_failed,
      {R"(job shell exec error on broker )", R"(start barrier timeout waiting for )"});
  // "flux-job: task(s) exited with exit code 1", "flux-job: task(s) Segmentation fault"
  // (src/common/libjob/job.c, flux_job_waitstatus_to_exitcode; flux-core#7328, #6021).
  add(run_status::failed, {R"(flux-job: (?:task\(s\)|job shell) )",
                           R"(job\.exception (?:\S+ )?type=exec severity=0 )"});
  // PBS MoM: "=>> PBS: job killed: %s" (openpbs src/resmom/mom_main.c, mom_over_limit; TORQUE
  // the same): "cput %lu exceeded limit %lu", "mem job total 115343360 kb exceeded limit
  // 115343360 kb" (dask/dask-jobqueue#178), "node %d (%s) requested job die, code %d", TORQUE
  // "... requested job terminate, ...". (walltime and mem are in preset_status.cpp.)
  add(run_status::timeout, {R"(job killed: cput \d+ exceeded limit \d+)"});
  add(run_status::host_oom, {R"(job killed: v?mem job total \d+ ?kb exceeded limit)",
                             R"(job killed: pvmem exceeded limit)"});
  add(run_status::node_failure,
      {R"(job killed: node \d+ \(\S+\) requested job (?:die|terminate))"});
  add(run_status::failed, {R"(job killed: ncpus [0-9.]+ exceeded limit \d+)"});
  // Slurm's older and other memory enforcement: "Exceeded step memory limit at some point."
  // (task_cgroup_memory.c <= 17.11), "Exceeded job memory limit" (srun's user message),
  // "exceeded virtual memory limit" (jobacct_gather).
  add(run_status::host_oom,
      {R"(Exceeded step memory limit at some point)", R"(Exceeded job memory limit)",
       R"(exceeded virtual memory limit \(\d+ > \d+\))"});
  // srun's launch failures (src/srun/launch.c, src/api/step_launch.c).
  add(run_status::launch_failed, {R"(srun: error: Application launch failed)",
                                  R"(srun: error: Task launch for \S+ failed on node )",
                                  R"(srun: error: Unable to allocate resources: )"});
}

}  // namespace aerun::detail
