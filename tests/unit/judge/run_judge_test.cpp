// The one judge of a run's status, as a table: what is known about a run -> status and reason.
// Every path (local runs, batch collection, ingest) calls judge_run; docs/presets.md states the
// same precedence in words.
#include "aerun/judge/run_judge.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace aerun {
namespace {

// Builders for the rows: each row starts from "nothing known" and adds facts.
struct Row {
  std::string name;
  RunEvidence e;
  std::string status;
  std::string reason;  // a substring the reason must hold ("" = the reason must be empty)
};

RunEvidence exited(int code) {
  RunEvidence e;
  e.exit_code = code;
  return e;
}
RunEvidence unknown_exit() {
  return {};
}

RunEvidence& progress(RunEvidence& e, long long lines, long long last) {
  e.progress_expected = true;
  e.progress_lines = lines;
  e.last_progress_line = last;
  return e;
}
RunEvidence& hit(RunEvidence& e, std::string status, long long line, long long progress_after,
                 std::string text) {
  e.hits.push_back({std::move(status), std::move(text), line, progress_after});
  return e;
}
RunEvidence& ended(RunEvidence& e, long long line) {
  e.completion_configured = true;
  e.end_line = line;
  return e;
}
RunEvidence& counter(RunEvidence& e, double done, double planned, long long line) {
  e.completion_configured = true;
  e.counter_done = done;
  e.counter_planned = planned;
  e.counter_line = line;
  return e;
}
RunEvidence& scheduler(RunEvidence& e, std::string status, std::string text) {
  e.scheduler_status = std::move(status);
  e.scheduler_text = std::move(text);
  return e;
}

std::vector<Row> table() {
  std::vector<Row> rows;
  auto add = [&](std::string name, RunEvidence e, std::string status, std::string reason) {
    rows.push_back({std::move(name), std::move(e), std::move(status), std::move(reason)});
  };
  RunEvidence e;

  // 1. aerun's own facts come first.
  e = exited(0), e.start_error = "cannot write log /x: Permission denied";
  add("could not start", e, "failed", "Permission denied");
  e = exited(143), e.stopped = true, e.stop_signal = "SIGTERM";
  hit(e, "comm_error", 9, 0, "NCCL error");
  add("stopped by the user, whatever the log says", e, "interrupted", "stopped by SIGTERM");
  e = exited(143), e.timeout_s = 30;
  add("aerun's timeout", e, "timeout", "timeout after 30 s");
  e = exited(143), e.stall_s = 600, e.stall_line = " iteration 40/ 1000 | loss 2.1",
  e.stall_line_no = 812;
  hit(e, "comm_error", 900, 0, "NCCL WARN Call to recv failed");  // the kill's consequence
  add("the stall watchdog, whatever the log says after it", e, "stalled",
      "no progress for 600 s after line 812:  iteration 40/ 1000 | loss 2.1");
  e = exited(143), e.first_step_s = 1200;
  add("the first-step deadline", e, "startup_timeout", "no first step within 1200 s");
  e = exited(0), e.write_error = "cannot write log /x: No space left on device";
  add("the log could not be written", e, "failed", "No space left");

  // 2. Status lines: a crashed run is never ok.
  e = exited(0);
  progress(e, 10, 40);
  hit(e, "failed", 41, 0, "Traceback (most recent call last):");
  add("exit 0 but a traceback after the last progress (torchrun)", e, "failed",
      "line 41: Traceback");
  e = exited(1);
  progress(e, 10, 40);
  hit(e, "failed", 41, 0, "Traceback (most recent call last):");
  hit(e, "oom", 45, 0, "torch.cuda.OutOfMemoryError: CUDA out of memory.");
  add("a root cause beats the bare crash line before it", e, "oom", "line 45");
  e = exited(1);
  hit(e, "oom", 50, 1, "CUDA out of memory");
  hit(e, "comm_error", 60, 0, "NCCL error");
  hit(e, "launcher_failed", 70, 0, "ChildFailedError");
  add("among root causes the earliest wins; the launcher's report is an outcome", e, "oom",
      "line 50");
  e = exited(0);
  progress(e, 100, 900);
  hit(e, "oom", 100, 80, "CUDA out of memory (retried with a smaller batch)");
  add("a status line the run went on from (2+ progress lines after it) is superseded", e, "ok", "");
  e = unknown_exit();
  progress(e, 3, 30);
  hit(e, "cancelled", 31, 0, "*** JOB 7 ON n1 CANCELLED AT 2024-01-01T00:00:00 ***");
  hit(e, "comm_error", 33, 0, "RuntimeError: NCCL Error 2: unhandled system error");
  add("lines after an external stop are its consequences", e, "cancelled", "line 31");
  e = unknown_exit();
  hit(e, "host_oom", 20, 0, "Job 7 exceeded memory limit (9000 > 8000), being killed");
  hit(e, "cancelled", 21, 0, "*** JOB 7 ON n1 CANCELLED AT 2024-01-01T00:00:00 ***");
  add("Slurm's memory kill, then its CANCELLED line", e, "host_oom", "exceeded memory limit");
  e = unknown_exit();
  hit(e, "comm_error", 20, 0, "ProcessGroupNCCL's watchdog got stuck for 480 seconds");
  hit(e, "timeout", 90, 0, "*** JOB 7 ON n1 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT");
  add("a hang in NCCL, then the time limit: the hang is the cause", e, "comm_error", "line 20");
  e = exited(0);
  progress(e, 1000, 1000);
  ended(e, 1010);
  hit(e, "failed", 1020, 0, "Exception ignored in: <function Pool.__del__>");
  add("finished, then a traceback at teardown: the results stand", e, "ok", "then line 1020");

  // The scheduler's verdict counts as a line after the log.
  e = exited(0);
  scheduler(e, "timeout", "TIMEOUT");
  add("scheduler says TIMEOUT, log says nothing", e, "timeout", "TIMEOUT");
  e = unknown_exit();
  scheduler(e, "cancelled", "CANCELLED");
  hit(e, "host_oom", 20, 0, "Job 7 exceeded memory limit (9000 > 8000), being killed");
  add("scheduler CANCELLED, log names the memory limit", e, "host_oom", "line 20");
  e = unknown_exit();
  scheduler(e, "interrupted", "PREEMPTED");
  hit(e, "failed", 20, 0, "Segmentation fault");
  add("a preemption outranks the crash it caused", e, "interrupted", "PREEMPTED");
  e = exited(1);
  scheduler(e, "failed", "FAILED");
  e.last_line = "ValueError: bad config";
  add("scheduler FAILED with a known exit code: the exit code and last line", e, "failed",
      "exit code 1: ValueError: bad config");
  e = unknown_exit();
  scheduler(e, "launch_failed", "F (Exit_status -3)");
  add("PBS could not launch the job", e, "launch_failed", "Exit_status -3");
  e = unknown_exit();
  scheduler(e, "ok", "COMPLETED");
  progress(e, 5, 50);
  add("scheduler COMPLETED means exit 0", e, "ok", "");

  // 3. How the process ended.
  e = exited(3);
  e.last_line = "AssertionError";
  add("non-zero exit", e, "failed", "exit code 3: AssertionError");
  e = exited(0), e.exit_code.reset(), e.signal = 9;
  add("killed by a signal", e, "failed", "killed by SIGKILL");

  // 4. Clean or unknown ends.
  e = exited(0);
  progress(e, 0, 0);
  add("exit 0 without a single progress line", e, "no_progress", "no iteration");
  e = unknown_exit();
  progress(e, 0, 0);
  add("an ingested log without progress", e, "no_progress", "no iteration");
  e = exited(0);
  progress(e, 49, 490);
  counter(e, 49, 1000, 490);
  add("exit 0 before the planned count (an early exit the program chose)", e, "ok", "");
  e = unknown_exit();
  progress(e, 49, 490);
  counter(e, 49, 1000, 490);
  add("an ingested log that stops at iteration 49 of 1000", e, "incomplete",
      "stops at 49 of 1000 (line 490)");
  e = unknown_exit();
  progress(e, 1000, 9990);
  counter(e, 1000, 1000, 9990);
  add("an ingested log whose counter reached the planned count", e, "ok", "");
  e = unknown_exit();
  progress(e, 10, 99);
  ended(e, 120);
  add("an ingested log with the end-of-training line", e, "ok", "");
  e = unknown_exit();
  progress(e, 10, 99);
  e.completion_configured = true;
  e.last_line = "iteration 10";
  add("an ingested log with progress but no end line", e, "incomplete",
      "no end-of-training line: iteration 10");
  e = unknown_exit();
  progress(e, 10, 99);
  add("no completion pattern to prove anything", e, "incomplete", "completion:");
  e = unknown_exit();
  progress(e, 40, 99);
  counter(e, 40, 50, 99);
  e.assume_complete = true;
  add("an excerpt the user vouches for (ingest --assume-complete)", e, "ok",
      "completion assumed (--assume-complete); the log stops at 40 of 50");
  e = unknown_exit();
  progress(e, 10, 99);
  hit(e, "oom", 100, 0, "CUDA out of memory");
  e.assume_complete = true;
  add("vouching does not hide a crash", e, "oom", "line 100");
  e = unknown_exit();
  progress(e, 10, 99);
  hit(e, "failed", 100, 0, "Bus error (core dumped)");
  ended(e, 0);
  add("an ingested log that ends in a crash line", e, "failed", "line 100: Bus error");

  // Divergence: the loss went NaN and stayed so. Finishing does not undo it; recovering does.
  e = exited(0);
  progress(e, 50, 500);
  hit(e, "diverged", 480, 1, "{'loss': nan, 'grad_norm': nan, 'learning_rate': 1e-05}");
  ended(e, 510);
  add("a NaN loss to the end of training is diverged, not ok", e, "diverged", "line 480");
  e = exited(0);
  progress(e, 50, 500);
  hit(e, "diverged", 100, 45, "{'loss': nan, 'grad_norm': nan}");
  ended(e, 510);
  add("a NaN loss the run recovered from (2+ progress lines after it) is superseded", e, "ok", "");
  e = exited(1);
  progress(e, 50, 500);
  hit(e, "diverged", 501, 0,
      "Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.");
  hit(e, "failed", 502, 0, "Traceback (most recent call last):");
  add("the loss scale at its minimum is the cause of the crash after it", e, "diverged",
      "line 501");

  // Unknown formats are not runs that did not progress.
  e = unknown_exit();
  progress(e, 0, 0);
  e.format_unknown = true, e.formats = "megatron, deepspeed";
  add("a log of no format the presets know", e, "unknown_format", "megatron, deepspeed");
  e = unknown_exit();
  progress(e, 0, 0);
  e.format_unknown = true;
  hit(e, "oom", 40, 0, "torch.OutOfMemoryError: CUDA out of memory.");
  add("a crash line still says what happened", e, "oom", "line 40");

  // External stops right after each other: the one that names a cause.
  e = unknown_exit();
  progress(e, 20, 200);
  hit(e, "cancelled", 201, 0,
      "slurmstepd: error: *** STEP 1234.0 ON nid001 CANCELLED AT 2024-05-01T10:00:00 ***");
  hit(e, "timeout", 202, 0,
      "slurmstepd: error: *** JOB 1234 ON nid001 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME "
      "LIMIT ***");
  add("a step's plain cancel, then the job's time limit", e, "timeout", "line 202");

  // Attempts in one log: the last decides, the earlier stops are named.
  e = unknown_exit();
  progress(e, 30, 900);
  hit(e, "timeout", 300, 20,
      "slurmstepd: error: *** JOB 1234 ON nid001 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME "
      "LIMIT ***");
  hit(e, "interrupted", 600, 10,
      "slurmstepd: error: *** JOB 1234 ON nid001 CANCELLED AT 2024-05-02T10:00:00 DUE TO "
      "PREEMPTION ***");
  ended(e, 950);
  add("requeued after a time limit and a preemption, then trained to its end", e, "ok",
      "2 earlier attempts: timeout (line 300), interrupted (line 600)");
  e = unknown_exit();
  progress(e, 30, 900);
  hit(e, "failed", 300, 20, "Traceback (most recent call last):");
  e.attempts.push_back({310, 20});
  hit(e, "comm_error", 700, 0, "torch.distributed.DistBackendError: NCCL error in: ...");
  add("a torchrun restart after a crash, then a communication error", e, "comm_error",
      "line 700: torch.distributed.DistBackendError: NCCL error in: ...; 1 earlier attempt: "
      "failed (line 300)");
  e = unknown_exit();
  progress(e, 30, 900);
  hit(e, "failed", 300, 20, "Traceback (most recent call last):");
  hit(e, "launcher_failed", 330, 20,
      "E1127 16:14:58.385000 1127 torch/distributed/elastic/multiprocessing/api.py:986] failed "
      "(exitcode: 1) local_rank: 0 (pid: 1152) of binary: /opt/torch/.venv/bin/python");
  ended(e, 950);
  add("torchrun restarted a failed group without saying so, then trained to its end", e, "ok",
      "1 earlier attempt: launcher_failed (line 330)");
  e = unknown_exit();
  progress(e, 30, 900);
  hit(e, "launcher_failed", 330, 20,
      "E1127 16:14:58.385000 1127 torch/distributed/elastic/multiprocessing/api.py:986] failed "
      "(exitcode: 1) local_rank: 0 (pid: 1152) of binary: /opt/torch/.venv/bin/python");
  hit(e, "oom", 800, 1, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.");
  add("a silent torchrun restart, then out of memory", e, "oom",
      "line 800: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.; 1 "
      "earlier attempt: launcher_failed (line 330)");
  e = unknown_exit();
  progress(e, 30, 900);
  e.attempts.push_back({5, 30});
  ended(e, 950);
  add("a resume line at the first start is no earlier attempt", e, "ok", "");

  // Teardown after the end of training.
  e = exited(1);
  progress(e, 100, 1000);
  ended(e, 1001);
  hit(e, "comm_error", 1005, 0, "[rank3]:[W1201 10:00:00] ProcessGroupNCCL: NCCL error ...");
  hit(e, "launcher_failed", 1020, 0,
      "torch.distributed.elastic.multiprocessing.errors."
      "ChildFailedError:");
  add("finished, then errors at teardown and exit 1: ok, noted", e, "ok",
      "finished (line 1001); then line 1005");
  e = exited(1);
  progress(e, 100, 1000);
  ended(e, 1001);
  add("finished, then exit 1 with no line saying why: failed", e, "failed", "exit code 1");
  return rows;
}

TEST(RunJudge, DecidesEveryRowOfTheTable) {
  for (const Row& row : table()) {
    SCOPED_TRACE(row.name);
    const Verdict v = judge_run(row.e);
    EXPECT_EQ(v.status, row.status);
    if (row.reason.empty())
      EXPECT_EQ(v.reason, "");
    else
      EXPECT_NE(v.reason.find(row.reason), std::string::npos) << v.reason;
  }
}

TEST(RunJudge, RanksRootCausesAboveOutcomesAboveBareCrashes) {
  EXPECT_GT(status_rank("oom"), status_rank("cancelled"));
  EXPECT_GT(status_rank("host_oom"), status_rank("launcher_failed"));
  EXPECT_GT(status_rank("launch_failed"), status_rank("failed"));
  EXPECT_EQ(status_rank("my_case_status"), status_rank("comm_error"));
  EXPECT_EQ(status_rank("diverged"), status_rank("oom"));
}

}  // namespace
}  // namespace aerun
