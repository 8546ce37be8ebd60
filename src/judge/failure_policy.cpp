#include "aerun/failure_policy.hpp"

#include <algorithm>

#include "aerun/case_spec.hpp"

namespace aerun {

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

bool transient_status(const std::string& s) {
  static const std::vector<std::string> transient{
      "comm_error",    "node_failure", "launcher_failed", "launch_failed",
      "submit_failed", "cancelled",    "interrupted",     "stale",
      "lost",          "running",      "stalled",         "startup_timeout"};
  return contains(transient, s);
}

const std::vector<std::string>& judge_statuses() {
  static const std::vector<std::string> all{"ok",
                                            "failed",
                                            "incomplete",
                                            "no_progress",
                                            "timeout",
                                            "oom",
                                            "host_oom",
                                            "comm_error",
                                            "node_failure",
                                            "launcher_failed",
                                            "launch_failed",
                                            "submit_failed",
                                            "cancelled",
                                            "interrupted",
                                            "stale",
                                            "lost",
                                            "stalled",
                                            "startup_timeout"};
  return all;
}

FailurePolicy::FailurePolicy(const CaseSpec& spec, bool force, bool rerun_failed)
    : force_(force), rerun_failed_(rerun_failed), rerun_(spec.rerun), retry_on_(spec.retry_on) {}

bool FailurePolicy::keeps(const std::string& status) const {
  if (force_) return false;
  if (status == "ok") return true;
  if (rerun_failed_ || transient_status(status) || status == "pending") return false;
  return !contains(rerun_, status);
}

bool FailurePolicy::retries(const std::string& status) const {
  if (status == "ok" || status == "interrupted") return false;
  return retry_on_.empty() ? transient_status(status) : contains(retry_on_, status);
}

}  // namespace aerun
