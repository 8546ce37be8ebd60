// The base vocabulary's deaths by signal and their launchers' words for them, in any case
// (glibc's strsignal texts, sysdeps/generic/siglist.h: Killed, Terminated, Aborted, Illegal
// instruction, Floating point exception): bare crashes (`failed`) unless a root cause stands.
#include "aerun/judge/run_status.hpp"
#include "logread/preset_families.hpp"

namespace aerun::detail {

void add_signal_status(const StatusAdder& add) {
  add(run_status::failed,
      {// srun (src/srun/launch.c, _task_finish): "srun: error: irene4016: tasks 1-3: Killed",
       // "task 0: Exited with exit code 255" (SWIFTSIM/SWIFT#74), "task 289: Bus error"
       // (hafs-community/HAFS#101), "Segmentation fault (core dumped)".
       R"(: tasks? [0-9,\-]+: (?:Exited with exit code [1-9]|Killed|Aborted|Segmentation fault|Bus error|Illegal instruction|Floating point exception))",
       // The shell's and the kernel's names: "Aborted (core dumped)", "Illegal instruction",
       // "Floating point exception" ("Segmentation fault" and "Bus error" are in
       // preset_status.cpp).
       R"(\(core dumped\))", R"(Illegal instruction)", R"(Floating point exception)",
       // torch.distributed.elastic: "exitcode  : -6 (pid: 56213)", "traceback : Signal 6
       // (SIGABRT) received by PID 56213" (multiprocessing/errors/__init__.py, ProcessFailure).
       R"(Signal \d+ \(SIG[A-Z]+\) received by PID)"});
  add(run_status::cancelled,
      {// The agent itself was signalled from outside (scancel, a time limit, preemption: a
       // scheduler line, when there is one, says which): "Received Signals.SIGTERM death signal,
       // shutting down workers" / "Received 15 death signal" (elastic/agent/server/api.py).
       R"(Received (?:\d+|Signals\.SIG[A-Z]+) death signal)",
       // bash >= 5.0 writes a bare "Terminated" for a batch script's SIGTERM (jobs.c,
       // DONT_REPORT_SIGTERM; cBio/cbio-cluster#403).
       R"(^Terminated\s*$)"});
}

}  // namespace aerun::detail
