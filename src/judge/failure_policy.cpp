#include "aerun/judge/failure_policy.hpp"

#include <algorithm>

#include "aerun/judge/run_status.hpp"

namespace aerun {

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

bool transient_status(const std::string& s) {
  // A run aerun lost track of while it ran is run again too.
  if (s == run_status::running) return true;
  const run_status::Info* i = run_status::find(s);
  return i && i->transient;
}

const std::vector<std::string>& judge_statuses() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> v;
    for (const auto& i : run_status::builtin()) v.emplace_back(i.name);
    return v;
  }();
  return all;
}

FailurePolicy::FailurePolicy(std::vector<std::string> rerun, std::vector<std::string> retry_on,
                             bool force, bool rerun_failed)
    : force_(force),
      rerun_failed_(rerun_failed),
      rerun_(std::move(rerun)),
      retry_on_(std::move(retry_on)) {}

bool FailurePolicy::keeps(const std::string& status) const {
  if (force_) return false;
  if (status == run_status::ok) return true;
  if (rerun_failed_ || transient_status(status) || status == run_status::pending) return false;
  return !contains(rerun_, status);
}

bool FailurePolicy::retries(const std::string& status) const {
  if (status == run_status::ok || status == run_status::interrupted) return false;
  return retry_on_.empty() ? transient_status(status) : contains(retry_on_, status);
}

}  // namespace aerun
