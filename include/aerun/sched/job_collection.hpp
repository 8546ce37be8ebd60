// `aerun collect` and `aerun cancel`: the batch jobs of earlier `aerun case --no-wait` calls,
// found in the store, gathered or cancelled.
#pragma once

#include <functional>

#include <iosfwd>
#include <string>

#include "aerun/sched/job_follower.hpp"

namespace aerun {

class Store;

struct CollectOptions {
  std::string case_ref;  // a case name or case file ("" = every case)
  bool wait = false;     // follow until every job ended (else: one look)
  FollowOptions follow;
  // With wait: called after each poll with the runs collected so far and those followed.
  std::function<void(int collected, int followed)> progress;
};

struct CollectSummary {
  int followed = 0;  // runs with a pending or running job before
  int ok = 0;
  int failed = 0;
  int outstanding = 0;  // still pending or running after
  int query_failures = 0;
  std::string last_error;
  int stop_signal = 0;
};

// Asks each scheduler (one query per scheduler per poll) about the runs left pending or running
// and collects the finished ones (logs, stamps, metrics, status) with their case files' metrics.
CollectSummary collect_jobs(Store& store, const CollectOptions& opts, std::ostream& out);

struct CancelSummary {
  int jobs = 0;       // scheduler jobs (arrays once) cancelled
  int runs = 0;       // runs now cancelled (or finished meanwhile)
  std::string error;  // the scheduler's message when a cancel failed
};

// Cancels every pending or running job of the case, then collects them (bounded wait); a run
// whose cancellation the scheduler has not confirmed within wait_s is stored as cancelled.
CancelSummary cancel_jobs(Store& store, const std::string& case_ref, std::ostream& out,
                          double wait_s = 15);

}  // namespace aerun
