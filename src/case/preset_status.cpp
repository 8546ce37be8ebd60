// The status patterns every preset shares: how HPC training runs die, in the wordings of PyTorch,
// Slurm, PBS, bash and NCCL. Each pattern keeps a literal of 6+ bytes so the shared literal pass
// rejects ordinary lines without running a regex.
#include "case/preset_families.hpp"

namespace aerun::detail {

std::vector<StatusPattern> shared_status_v1() {
  const SourceLoc loc{"preset status@1", 0, 0};
  std::vector<StatusPattern> s;
  auto add = [&](const char* status, std::initializer_list<const char*> patterns) {
    for (const char* p : patterns) s.push_back({p, status, loc});
  };
  // Scheduler verdicts first: the line that ends the job names why.
  add("timeout", {R"(CANCELLED AT \S+ DUE TO TIME LIMIT)",      // Slurm
                  R"(walltime \d+ exceeded limit \d+)"});       // PBS: "job killed: walltime ..."
  add("node_failure", {R"(CANCELLED AT \S+ DUE TO NODE FAIL)",  // Slurm
                       R"(srun: error: Node failure on )"});
  add("cancelled", {R"(CANCELLED AT \S+ \*\*\*)",  // Slurm scancel
                    R"(CANCELLED AT \S+ DUE TO PREEMPTION)"});
  add("oom", {R"(CUDA out of memory)",  // torch: "CUDA out of memory. Tried to allocate ..."
              R"(CUDA error: out of memory)", R"(OutOfMemoryError)",  // torch.cuda.OutOfMemoryError
              R"(HIP out of memory)", R"(XPU out of memory)", R"(CUBLAS_STATUS_ALLOC_FAILED)"});
  add("host_oom", {R"(oom-kill event)",   // slurmstepd: Detected 1 oom-kill event(s) in StepId=
                   R"(oom_kill event)",   // older slurmstepd wording
                   R"(: Out Of Memory)",  // srun: error: nid001: task 0: Out Of Memory
                   R"((?:^|: line \d+: +\d+ +)Killed(?: |$))",  // bash: "... 4242 Killed  python"
                   R"(DefaultCPUAllocator: can't allocate memory)"});
  add("comm_error", {R"(NCCL error)", R"(ncclSystemError)", R"(ncclInternalError)",
                     R"(ncclUnhandledCudaError)", R"(ncclRemoteError)",
                     R"(Watchdog caught collective operation timeout)", R"(DistBackendError)"});
  add("launcher_failed", {R"(ChildFailedError)",  // torch.distributed.elastic
                          R"(elastic.multiprocessing.api:failed \(exitcode)"});
  return s;
}

}  // namespace aerun::detail
