// Follows runs submitted as batch jobs: one scheduler query per interval for all of them (with
// backoff), their state kept current in the store, each finished job collected (log, stamps,
// metrics, status) into the store. A failed query never finishes a run.
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/run/executor.hpp"
#include "aerun/sched/scheduler_client.hpp"

namespace aerun {

class Store;

struct FollowOptions {
  double poll_s = 1;       // first interval between queries
  double max_poll_s = 30;  // the interval grows by half each quiet poll, up to this
  int missing_polls = 2;   // polls a job must be absent before it counts as gone
  double max_wait_s = 0;   // follow() gives up after this long (0 = until every job ended)
};

// What happened to the runs followed.
struct FollowSummary {
  int ok = 0;
  int failed = 0;          // every finished status but ok
  int query_failures = 0;  // queries that could not reach the scheduler
  std::string last_error;  // the last of those failures
};

class JobFollower {
 public:
  // exec: the clock follow() reads and its wait between polls (a virtual clock in the unit
  // tests, tests/unit/run/fake_executor.hpp: an hour of polling runs in milliseconds).
  JobFollower(Store& store, SchedulerClient& client, std::ostream& out, FollowOptions opts = {},
              Executor& exec = system_executor());

  // Follows r (a stored run with a job id). spec (may be null: no metrics) must outlive this.
  void add(const RunRecord& r, const CaseSpec* spec);
  size_t outstanding() const { return runs_.size(); }
  // The runs still followed, as last stored.
  std::vector<RunRecord> outstanding_runs() const;

  // One query for every outstanding job; stores state changes and collects finished runs.
  // Returns false when the scheduler could not be asked (nothing was concluded).
  bool poll_once();
  // Polls until nothing is outstanding, `keep_going` says stop, or a SIGINT/SIGTERM arrives
  // (returned; 0 otherwise). Sleeps between polls with backoff; `between` runs after each poll
  // (e.g. to submit more jobs under a queue cap).
  int follow(const std::function<void()>& between = {});

  const FollowSummary& summary() const { return sum_; }
  // Called with each run once it is finished and stored (e.g. to submit a retry).
  void on_finished(std::function<void(const RunRecord&)> fn) { on_finished_ = std::move(fn); }

 private:
  struct Followed {
    RunRecord rec;
    const CaseSpec* spec = nullptr;
    int missing = 0;
    int book_waits = 0;  // polls it ended in the queue but not yet in the books
  };
  void finish(Followed& f, const RunState& state, const JobReport* report);
  // The scheduler's accounting of the runs ending now (the queue says they ended, or they are
  // leaving it), asked once for all: `kept` when the cluster keeps any.
  struct Books {
    bool kept = false;
    std::map<std::string, JobReport> finished;
  };
  Books books_of_ending(const QueryResult& q);
  // One followed run after a query: true when it is over (finished and stored).
  bool follow_one(Followed& f, const QueryResult& q, const Books& books);
  // A run still queued or running whose state or reason changed: stored.
  void note_state(Followed& f, const JobReport& rep);

  Store& store_;
  SchedulerClient& client_;
  std::ostream& out_;
  FollowOptions opts_;
  Executor& exec_;
  std::vector<Followed> runs_;
  // Per case followed: its patterns compiled once (empty when they do not compile: collect_run
  // then says why for each run).
  std::map<const CaseSpec*, std::optional<Extractor>> blanks_;
  FollowSummary sum_;
  std::function<void(const RunRecord&)> on_finished_;
};

// Gives a finished job's run its status, reason, times (from the stamps, else the scheduler),
// exit code, log size and digest, metrics and series. `state` is the scheduler's verdict; the
// case's status patterns (e.g. a CUDA OOM line) and `no_progress` refine a failure or an ok.
// blank (optional): an Extractor of spec, whose fresh() copy reads the log (the patterns
// compiled once for many runs).
void collect_run(RunRecord& r, const RunState& state, const JobReport* report, const CaseSpec* spec,
                 const Extractor* blank = nullptr);

}  // namespace aerun
