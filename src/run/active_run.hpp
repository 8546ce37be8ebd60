// One run in flight on this host: its process, its log, what its output has shown so far, and
// its deadlines. The run loop (case_runner.cpp) polls its output fd, hands it the time, and asks
// the judge for its status once it is done.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/judge/run_judge.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/run/executor.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/util/sha256.hpp"
#include "aerun/util/unique_fd.hpp"
#include "run/extraction_worker.hpp"

namespace aerun {

class ActiveRun {
 public:
  // rec: the run as begun in the store (id, attempt, log path set). blank: an Extractor of spec
  // whose fresh() copies read the output (the patterns compiled once for all runs), or nullptr to
  // compile them for this run. exec: what starts the command and tells the time.
  ActiveRun(const CaseSpec& spec, const PlannedRun& plan, RunRecord rec, Executor& exec,
            const Extractor* blank = nullptr);

  // Opens the log and spawns `shell -c command`. Never throws: a failure to start is kept and
  // decides the run's status (done() is then true at once).
  void start(const std::vector<std::string>& env);

  const PlannedRun& plan() const { return *plan_; }
  // The command was spawned (false when it could not start).
  bool started() const { return child_ != nullptr; }
  // The command's pid, also its process group (0 before it started).
  int child_pid() const { return child_ ? child_->pid() : 0; }
  // Its start time in clock ticks (what tells a reused pid from it), 0 before it started.
  long long child_start_ticks() const { return child_ ? child_->start_ticks() : 0; }
  const RunRecord& record() const { return rec_; }
  // Readable when extraction has moved on (tick() empties it), -1 without extraction.
  int progress_fd() const { return worker_ ? worker_->wake_fd() : -1; }
  // The output pipe to poll, -1 when there is nothing more to read.
  int output_fd() const;
  // Reads what the run wrote (until the pipe would block): into the log, the digest and the
  // extractor; the first output and the first step are timestamped.
  void read_output(std::vector<char>& buf);
  // Reaps the child, enforces the timeout, the stall and first-step watchdogs and the SIGTERM ->
  // SIGKILL escalation, and stops what still holds the output 2 s after the command ended. now:
  // monotonic seconds.
  void tick(double now, double kill_grace_s);
  // Stops the run because aerun was asked to stop (SIGTERM now, SIGKILL after the grace).
  void interrupt(double now, double kill_grace_s, std::string signal_name);
  // The next moment tick() has something to do (monotonic), or `later` if nothing sooner.
  double next_wake(double later) const;
  // The process has ended and its output is read to the end.
  bool done() const;
  // Once done: the record with times, exit, metrics, log digest and the judge's verdict.
  RunRecord finish();
  // Live progress: "iteration 120/1000 (12%), 2.1/s, ETA 7:08" when the log states a
  // total (a completion counter), else "".
  std::string live_progress() const;
  // The tenth of the total the run has reached since last asked (for a plain line at each 10 %),
  // or -1 when it has crossed none.
  int crossed_tenth();

 private:
  void write_log(std::string_view chunk);
  RunEvidence evidence() const;

  const CaseSpec& spec_;
  const PlannedRun* plan_;
  RunRecord rec_;
  Executor& exec_;
  const Extractor* blank_;
  std::unique_ptr<Process> child_;
  UniqueFd log_;
  Sha256 log_hash_;
  long long log_bytes_ = 0;  // written to the log so far
  // Extraction runs on the worker's thread while the command runs; once done, the extractor it
  // hands back (extractor_) is read for the verdict and the metrics.
  std::unique_ptr<ExtractionWorker> worker_;
  Extractor* extractor_ = nullptr;
  ExtractionWorker::Progress seen_;  // the worker's progress as of the last tick
  double start_mono_ = 0;
  double ended_mono_ = 0, ended_wall_ = 0;  // when the command had exited and its output ended
  void note_end();
  double deadline_mono_ = 0;  // 0 = none
  double kill_at_mono_ = 0;   // when SIGKILL follows a SIGTERM (0 = not asked to stop)
  double exited_mono_ = 0;    // when the child was reaped
  double exited_wall_ = 0;
  std::vector<int> left_running_;  // what held its output after it ended (outside its group)
  bool eof_ = false;
  bool timed_out_ = false;
  int tenth_reported_ = 0;
  // Which watchdog fired.
  bool stalled_ = false, startup_timed_out_ = false;
  std::string stall_line_;
  long long stall_line_no_ = 0;
  // The earliest moment a watchdog may fire (0: none armed).
  double watchdog_at() const;
  bool stopping() const {
    return timed_out_ || stalled_ || startup_timed_out_ || !stop_signal_.empty();
  }
  std::string stop_signal_;  // set when interrupted
  std::string start_error_, write_error_;
};

}  // namespace aerun
