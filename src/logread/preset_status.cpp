// The status patterns every preset shares: how HPC training runs die, in the wordings of PyTorch,
// Slurm, PBS, bash and NCCL. Each pattern keeps a literal of 6+ bytes so the shared literal pass
// rejects ordinary lines without running a regex.
#include "logread/preset_families.hpp"

#include "aerun/judge/run_status.hpp"

namespace aerun::detail {

std::vector<StatusPattern> shared_status_v1() {
  std::vector<StatusPattern> s;
  const StatusAdder add{s, SourceLoc{"preset status@1", 0, 0}};
  // Scheduler verdicts first: the line that ends the job names why. slurmstepd writes
  // "*** JOB 12 ON n1 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***" and its siblings
  // (src/slurmd/slurmstepd/req.c, _handle_signal_container: TIME LIMIT, PREEMPTION, NODE
  // FAILURE, JOB REQUEUE, "FAILED (non-zero exit code or other failure mode)", "UNCORRECTABLE
  // MEMORY ERROR AT", and plain "CANCELLED AT <time> ***" for scancel's SIGTERM/SIGKILL; older
  // releases put the node last: "CANCELLED AT <time> DUE TO NODE n1 FAILURE ***"). Slurm 25.05
  // writes "DUE to SIGNAL Terminated" and "DUE TO TASK FAILURE": "DUE TO" is matched in any case.
  // On one line the first listed pattern wins, so the specific ones come before plain cancel.
  add(run_status::timeout,
      {R"(CANCELLED AT \S+ (?i:due to) TIME LIMIT)",  // Slurm
       R"(walltime \d+ exceeded limit \d+)"});        // PBS: "job killed: walltime ..."
  add(run_status::node_failure,
      {R"(CANCELLED AT \S+ (?i:due to) NODE (?:\S+ )?FAIL)",  // Slurm
       R"(srun: error: Node failure on )",
       R"( UNCORRECTABLE MEMORY ERROR AT )"});  // Slurm: a hardware memory error
  add(run_status::interrupted,
      {R"(CANCELLED AT \S+ (?i:due to) PREEMPTION)",   // Slurm preemption
       R"(CANCELLED AT \S+ (?i:due to) JOB REQUEUE)",  // scontrol requeue, --requeue
       // The last line of the traceback Python prints for an uncaught KeyboardInterrupt (Ctrl-C).
       R"(^KeyboardInterrupt\s*$)"});
  add(run_status::failed,
      {R"(CANCELLED AT \S+ (?i:due to) TASK FAILURE)",  // Slurm: --kill-on-bad-exit
                                                        // An IDE's run console (IntelliJ, PyCharm):
                                                        // "Process finished with exit code 1",
                                                        // glued to the last line when that had no
                                                        // newline.
       R"(Process finished with exit code [1-9])",
       R"( FAILED \(non-zero exit code or other failure mode\))"});
  add(run_status::cancelled, {R"(CANCELLED AT \S+ \*\*\*)",  // Slurm scancel
                              R"(CANCELLED AT \S+ (?i:due to) SIGNAL)",
                              // Ctrl-C caught by the training loop of pytorch/examples'
                              // word_language_model/main.py (and the scripts built on it):
                              // except KeyboardInterrupt: print('Exiting from training early')
                              R"(Exiting from training early)",
                              // PaddlePaddle's signal handler, for a SIGTERM from outside:
                              // "FatalError: `Termination signal` is detected by the operating
                              // system." (paddle/fluid/platform/init.cc, SignalHandle).
                              R"(`Termination signal` is detected by the operating system)"});
  add_lsf_flux_pbs_status(add);
  add_divergence_status(add);
  // Host memory, said by the language runtime (before the accelerators' patterns: the JVM's
  // error is no CUDA one): the JVM's "Exception in thread "main" java.lang.OutOfMemoryError: Java
  // heap space" (Deeplearning4j, Spark), C++'s std::bad_alloc ("terminate called after throwing
  // an instance of 'std::bad_alloc'", libstdc++'s verbose terminate handler).
  add(run_status::host_oom, {R"(java\.lang\.OutOfMemoryError)", R"(std::bad_alloc)"});
  add(run_status::oom,
      {R"(CUDA out of memory)",  // torch: "CUDA out of memory. Tried to allocate ..."
       R"(CUDA error: out of memory)", R"(OutOfMemoryError)",  // torch.cuda.OutOfMemoryError
       R"(HIP out of memory)", R"(XPU out of memory)", R"(CUBLAS_STATUS_ALLOC_FAILED)",
       // darknet src/cuda.c, check_error: printf("CUDA Error: %s\n", cudaGetErrorString(...)),
       // and MXNet's storage manager "cudaMalloc failed: out of memory"
       // (src/storage/pooled_storage_manager.h).
       R"(CUDA Error: out of memory)", R"(cudaMalloc failed: out of memory)",
       // PyTorch <= 1.x's THC: "THCudaCheck FAIL file=.../THCStorage.cu line=58 error=2 : out of
       // memory" (THC/THCGeneral.cpp's THCudaCheck; microsoft/singleshotpose#40).
       R"(THCudaCheck FAIL file=.* : out of memory)",
       // fairseq2's recipe runner: except OutOfMemoryError: log.exception("CUDA run out of
       // memory. See the logged memory stats.\n{}", ...) (index id 48348623780;
       // facebookresearch/fairseq2#976).
       R"(CUDA run out of memory)"});
  add_accelerator_status(add);
  add(run_status::host_oom,
      {R"(oom-kill event)",   // slurmstepd: Detected 1 oom-kill event(s) in StepId=
       R"(oom_kill event)",   // older slurmstepd wording
       R"(: Out Of Memory)",  // srun: error: nid001: task 0: Out Of Memory
       // slurmstepd's memory enforcement (JobAcctGather, src/slurmd/common/slurmstepd_init /
       // jobacct_gather): "Job 1234 exceeded memory limit (10240 > 8192), being killed" and
       // "Step 1234.0 exceeded memory limit (...), being killed".
       R"(exceeded memory limit \(\d+ > \d+\), being killed)",
       // PBS Pro / OpenPBS MoM: "=>> PBS: job killed: mem 4194304kb exceeded limit 2097152kb"
       // (and vmem) (src/resmom/mom_main.c, job_over_limit).
       R"(job killed: v?mem \d+\w* exceeded limit)",
       R"((?:^|: line \d+: +\d+ +)Killed(?: |$))",  // bash: "... 4242 Killed  python"
       R"(DefaultCPUAllocator: can't allocate memory)"});
  add_storage_status(add);
  add(run_status::comm_error,
      {R"(NCCL error)",
       R"(NCCL Error \d+:)",  // torch 2.4: "RuntimeError: NCCL Error 2: unhandled system error"
       R"(ncclSystemError)", R"(ncclInternalError)", R"(ncclUnhandledCudaError)",
       R"(ncclRemoteError)", R"(Watchdog caught collective operation timeout)",
       R"(ProcessGroupNCCL's watchdog got stuck)",  // torch >= 2.2 heartbeat monitor
       R"(DistBackendError)"});
  add_collective_status(add);
  add(run_status::launcher_failed,
      {R"(ChildFailedError)",                               // torch.distributed.elastic
       R"(elastic.multiprocessing.api:failed \(exitcode)",  // torch < 2.2 logging format
       // torch >= 2.2: "E1211 10:00:00.123000 140 torch/distributed/elastic/multiprocessing/
       // api.py:833] failed (exitcode: 1) local_rank: 0 (pid: 12) of binary: ..."
       R"(elastic/multiprocessing/api\.py:\d+\] failed \(exitcode)"});
  add_mpi_status(add);
  // Bare crashes: the process died, the line does not say of what (a root cause elsewhere in the
  // log wins, run_judge.cpp). A traceback that training went on after is superseded.
  add(run_status::failed,
      {R"(Traceback \(most recent call last\):)",  // CPython
       R"(Segmentation fault)", R"(Bus error)",    // the shell or the kernel's signal names
       R"(CUDA error: )",                          // after the oom patterns: not OOM
       R"(rank \d+ died from signal \d+)",  // HPE Cray PALS: "x1000c0s0b0n0: rank 3 died from
                                            // signal 11"
       R"(BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES)",  // MPICH Hydra
       // glog's fatal CHECK (C++ trainers: Caffe, MXNet, TensorFlow's core): glog/logging.h,
       // CHECK(condition) logs LOG(FATAL) << "Check failed: " #condition, as
       // "F0610 17:15:24.994758  3575 syncedmem.hpp:30] Check failed: error == cudaSuccess".
       R"(\] Check failed: )",
       // A C++ program's uncaught exception: "terminate called after throwing an instance of
       // 'std::runtime_error'" (libstdc++-v3/libsupc++/vterminate.cc); a Java one: "Exception in
       // thread "main" java.lang.IllegalStateException: ..." (java.lang.ThreadGroup
       // .uncaughtException); a failed C assert(): "prog: file.c:12: main: Assertion `x' failed."
       // (glibc assert/assert.c), as CUDA's device asserts print it too ("Assertion `t >= 0 && t <
       // n_classes` failed.", pytorch/examples#544).
       R"(terminate called after throwing an instance of)", R"(Exception in thread ")",
       R"(Assertion [`'].*[`'] failed)",
       // The last line of a Python traceback whose start the log does not show (an excerpt, a
       // rank's prefix): "RuntimeError: CUDA error: an illegal memory access was encountered",
       // "[rank0]: torch.distributed.DistBackendError: ...".
       R"((?:^|\]: ?)\s*[A-Za-z_][\w.]*Error: )", R"((?:^|\]: ?)\s*[A-Za-z_][\w.]*Exception: )"});
  add_signal_status(add);
  return s;
}

}  // namespace aerun::detail

namespace aerun::detail {

// Where a launcher starts a new attempt of the run in the same log.
std::vector<std::string> shared_restart_v1() {
  return {
      // torch.distributed.elastic (torchrun --max-restarts): "[default] Worker group FAILED. 3/3
      // attempts left; will restart worker group", and "Detected 1 new nodes from group_rank=0;
      // will restart worker group" (torch/distributed/elastic/agent/server/api.py,
      // SimpleElasticAgent._invoke_run).
      R"(; will restart worker group)",
      // submitit requeues a timed-out or preempted job, whose next attempt appends to the same
      // log: "Requeued job 1234 (2 remaining timeouts)" (submitit/slurm/slurm.py, _requeue);
      // Lightning's SLURM auto-requeue: "Requeued SLURM job: 1234"
      // (lightning/pytorch/trainer/connectors/signal_connector.py).
      R"(Requeued job \d+ \(\d+ remaining timeouts\))",
      R"(Requeued SLURM job: \d+)",
  };
}

}  // namespace aerun::detail
