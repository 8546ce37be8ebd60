// The one judge of a run's final status: a pure function from everything known about
// a finished run (how its process ended, the scheduler's verdict, what its log said) to a status
// and a reason. The local runner, batch collection and ingest all call it; docs/presets.md gives
// the precedence in words and tests/unit/run/run_judge_test.cpp as a table.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace aerun {

// Final statuses, in aerun's words:
//   ok, failed, incomplete, no_progress, unknown_format, diverged, disk_full, timeout, oom,
//   host_oom, comm_error, node_failure, launcher_failed, launch_failed, cancelled, interrupted,
//   lost, stalled, startup_timeout,
// or a status name of the case's own `status:` patterns.
// How much a status explains a failure, for choosing among several log lines: a root cause
// (oom, host_oom, comm_error, node_failure, timeout, interrupted, and the case's own names) beats
// an outcome (cancelled, launcher_failed, launch_failed, lost), which beats a bare crash (failed).
int status_rank(const std::string& status);

// A line of the log that matched a status pattern.
struct LogHit {
  std::string status;            // the pattern's status
  std::string line;              // the line (truncated)
  long long line_no = 0;         // 1-based
  long long progress_after = 0;  // progress lines the log shows after this one
};

// A line where a new attempt of the run starts in the same log: a torchrun restart of its worker
// group, a framework resuming from a checkpoint, a requeued job's banner.
struct AttemptStart {
  long long line_no = 0;
  long long progress_after = 0;  // progress lines the log shows after this one
  bool operator==(const AttemptStart&) const = default;
};

// Everything known about a finished run. Unknown things stay empty.
struct RunEvidence {
  // aerun's own decisions (local runs).
  std::string start_error;  // could not start (no shell, no log file, ...)
  std::string write_error;  // the log could not be written
  bool stopped = false;     // stopped by the user (Ctrl-C / SIGTERM to aerun)
  std::string stop_signal;  // "SIGINT"
  double timeout_s = 0;     // > 0: aerun's own timeout fired after this many seconds
  // The watchdogs: no progress line for stall_s after the last one (its text and line
  // number kept), or no first step within first_step_s of the start.
  double stall_s = 0;
  std::string stall_line;
  long long stall_line_no = 0;
  double first_step_s = 0;

  // How the process ended (nullopt: unknown, e.g. an ingested log).
  std::optional<int> exit_code;
  std::optional<int> signal;  // killed by this signal

  // The scheduler's verdict on a batch job (empty: none). `scheduler_status` is its meaning in
  // the words above ("ok", "failed", "timeout", "cancelled", "interrupted", "host_oom",
  // "node_failure", "launch_failed", "lost"); `scheduler_text` what it said, for the reason.
  std::string scheduler_status;
  std::string scheduler_text;

  // What the log said.
  std::vector<LogHit> hits;            // status-pattern lines (at most a few per status), by line
  std::vector<AttemptStart> attempts;  // where later attempts start, in line order
  bool progress_expected = false;      // some metric is flagged progress
  long long progress_lines = 0;        // lines that matched a progress metric
  long long last_progress_line = 0;
  long long end_line = 0;  // last line matching a completion `end` pattern (0: none)
  // The last completion `counter` line: done of planned ("iteration 49/ 1000").
  std::optional<double> counter_done, counter_planned;
  long long counter_line = 0;
  bool completion_configured = false;  // the case has some end or counter pattern
  // The user vouches that the log is of a run that finished (`aerun ingest --assume-complete`,
  // for excerpts of logs): with the exit code unknown and no crash line, ok instead of incomplete.
  bool assume_complete = false;
  std::string last_line;  // the log's last non-empty line (for reasons)
  // The log showed none of the signature lines of the formats the case reads (`formats`, e.g.
  // "megatron, deepspeed"): with no progress line either, the run is unknown_format, never
  // no_progress (a format aerun cannot read is not a run that did not progress).
  bool format_unknown = false;
  std::string formats;
};

struct Verdict {
  std::string status;
  std::string reason;
  bool operator==(const Verdict&) const = default;
};

// The precedence (docs/presets.md, "How a run's status is decided"):
//  1. aerun's own facts: could not start or write the log -> failed; stopped by the user ->
//     interrupted; aerun's timeout -> timeout; its stall watchdog -> stalled; its first-step
//     deadline -> startup_timeout.
//  2. Log lines and the scheduler's verdict, when the run did not end cleanly or a line is not
//     superseded: a status line is superseded when 2 or more progress lines or an end line follow
//     it (the run went on; a `diverged` line only by progress). The log is split into attempts
//     (at each AttemptStart, and after an external stop the run went on from): the last attempt
//     decides, the earlier ones' stops are named in the reason. Lines after the first external
//     stop (time limit, cancel, preemption, node failure) are its consequences and are ignored,
//     except further external stops right after it (a step's plain cancel, then the job's time
//     limit: the time limit). The best ranked status wins, the earliest line among equals; the
//     scheduler's verdict counts as a line after the log. When training had finished and only
//     lines after the end say otherwise (teardown), the results stand: ok, the lines and a
//     non-zero exit code noted — unless the scheduler names a cause, or the run diverged.
//  3. A non-zero exit code or a signal -> failed.
//  4. Ended cleanly (exit 0) or exit unknown: no progress line where one was expected ->
//     unknown_format when the log showed none of its formats' signatures, else no_progress. Exit
//     unknown: ok only with an end line or a counter at its planned count (or assume_complete);
//     else incomplete.
Verdict judge_run(const RunEvidence& e);

}  // namespace aerun
