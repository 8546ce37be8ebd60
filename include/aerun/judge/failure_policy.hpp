// Which outcomes are results and which are accidents. A result (ok, or a deterministic
// failure: oom, host_oom, timeout, failed, no_progress, incomplete, the case's own statuses) is
// kept by a later `aerun case`; a transient failure (comm_error, node_failure, launcher_failed,
// launch_failed, submit_failed, cancelled, interrupted, stale, lost) is run again. `retries:`
// retries transient failures within one invocation. docs/case-format.md has the table.
#pragma once

#include <string>
#include <vector>

namespace aerun {

// comm_error, node_failure, ...: the run may well succeed if it is simply run again.
bool transient_status(const std::string& status);

// Every status aerun itself gives a finished run (for checking the names a case lists).
const std::vector<std::string>& judge_statuses();

class FailurePolicy {
 public:
  // rerun, retry_on: the case's `rerun:` and `retry_on:` statuses; force: run everything again
  // (`--force`); rerun_failed: every failure runs again (`--rerun-failed`).
  FailurePolicy(std::vector<std::string> rerun, std::vector<std::string> retry_on, bool force,
                bool rerun_failed);

  // A stored run with this status is kept: not run again by this invocation.
  bool keeps(const std::string& status) const;
  // A run that just ended with this status gets another attempt (if it has attempts left).
  bool retries(const std::string& status) const;

 private:
  bool force_, rerun_failed_;
  std::vector<std::string> rerun_, retry_on_;
};

}  // namespace aerun
