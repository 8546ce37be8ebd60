// Which sessions `aerun regress` and `aerun report` compare (docs/nightly.md): the current one
// (named, or the latest with runs) and, per case, its baseline sessions (named, the last before a
// date, the best of the N before, or the previous one).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/report/regress.hpp"
#include "aerun/store/session.hpp"
#include "aerun/store/store.hpp"

namespace aerun {

// --tolerance: "10%" or "0.1". Throws InputError naming the option.
double parse_tolerance(const std::string& text, const std::string& option = "--tolerance");

// The case file the runs recorded, as it is now (nullopt when none still loads): the metrics'
// units and directions, the tables.
std::optional<CaseSpec> case_of(const std::vector<RunRecord>& runs);

class SessionPick {
 public:
  // Reads the store's sessions; `db` names the store in messages.
  SessionPick(const Store& store, std::string db);

  // ref: a label or id; "": the latest session with runs of `cases` (of any case when empty).
  // Throws InputError (with the nearest label) for an unknown session.
  const SessionInfo& pick_current(const std::string& ref, const std::vector<std::string>& cases,
                                  const std::string& option = "--current");
  // ref: a label or id, YYYY-MM-DD, best-of-N or previous. Call after pick_current.
  void pick_baseline(const std::string& ref, const std::string& option = "--baseline");
  // The baseline sessions of a case, oldest first, with the case's runs (may be empty).
  std::vector<SessionRuns> baselines(const std::string& case_name) const;
  // "night1 (previous)", "best-of-5 (n1, n2)", or the named session's label.
  std::string baseline_heading(const std::vector<std::string>& used) const;

  const std::vector<SessionInfo>& sessions() const { return sessions_; }
  const SessionInfo& current() const { return sessions_[current_]; }

 private:
  const SessionInfo& named(const std::string& ref, const std::string& option) const;

  const Store& store_;
  std::string db_;
  std::vector<SessionInfo> sessions_;  // oldest first
  size_t current_ = 0;
  std::string baseline_ref_ = "previous";
  int best_of_ = 0;
  std::optional<double> before_;  // a date's end
  std::optional<size_t> named_;   // a named baseline
};

}  // namespace aerun
