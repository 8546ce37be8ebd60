#include "aerun/report/session_pick.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

namespace {

std::string labels_of(const std::vector<SessionInfo>& sessions) {
  std::vector<std::string> l;
  for (auto it = sessions.rbegin(); it != sessions.rend() && l.size() < 8; ++it)
    l.push_back(it->label);
  return l.empty() ? "none"
                   : fmt::format("{}{}", fmt::join(l, ", "), sessions.size() > 8 ? ", ..." : "");
}

// The end of a calendar day (UTC) given as YYYY-MM-DD; nullopt when ref is no date.
std::optional<double> end_of_day(const std::string& ref) {
  std::tm tm{};
  const char* end = ::strptime(ref.c_str(), "%Y-%m-%d", &tm);
  if (!end || *end != '\0') return std::nullopt;
  return static_cast<double>(::timegm(&tm)) + 86400;
}

}  // namespace

double parse_tolerance(const std::string& text, const std::string& option) {
  std::string t = text;
  const bool percent = !t.empty() && t.back() == '%';
  if (percent) t.pop_back();
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || !(v >= 0))
    throw InputError(SourceLoc{}, option,
                     "'" + text + "': write a fraction (0.1) or a percentage (10%)");
  return percent ? v / 100 : v;
}

std::optional<CaseSpec> case_of(const std::vector<RunRecord>& runs) {
  std::vector<std::string> tried;
  for (const auto& r : runs) {
    if (r.case_file.empty() || std::find(tried.begin(), tried.end(), r.case_file) != tried.end())
      continue;
    tried.push_back(r.case_file);
    std::error_code ec;
    if (!std::filesystem::exists(r.case_file, ec)) continue;
    try {
      CaseSpec spec = load_case(r.case_file);
      if (spec.name == r.case_name) return spec;
    } catch (const std::exception&) {
      // A case file that no longer loads: try another run's.
    }
    if (tried.size() >= 3) break;
  }
  return std::nullopt;
}

SessionPick::SessionPick(const Store& store, std::string db)
    : store_(store), db_(std::move(db)), sessions_(store.sessions()) {}

const SessionInfo& SessionPick::named(const std::string& ref, const std::string& option) const {
  if (auto s = store_.find_session(ref))
    for (const auto& x : sessions_)
      if (x.id == s->id) return x;
  std::vector<std::string> labels;
  for (const auto& s : sessions_) labels.push_back(s.label);
  const std::string near = nearest_key(ref, labels);
  throw InputError(
      SourceLoc{}, option,
      fmt::format("no session '{}'{} (latest: {})", ref,
                  near.empty() ? "" : " (did you mean '" + near + "'?)", labels_of(sessions_)));
}

const SessionInfo& SessionPick::pick_current(const std::string& ref,
                                             const std::vector<std::string>& cases,
                                             const std::string& option) {
  if (!ref.empty()) {
    current_ = static_cast<size_t>(&named(ref, option) - sessions_.data());
    return current();
  }
  for (size_t i = sessions_.size(); i-- > 0;) {
    const bool runs = cases.empty()
                          ? store_.session_has_runs(sessions_[i].id, "")
                          : std::any_of(cases.begin(), cases.end(), [&](const std::string& c) {
                              return store_.session_has_runs(sessions_[i].id, c);
                            });
    if (runs) {
      current_ = i;
      return current();
    }
  }
  throw InputError(SourceLoc{}, option,
                   "no session with runs" +
                       (cases.empty() ? std::string() : " of the cases asked for") + " in " + db_);
}

void SessionPick::pick_baseline(const std::string& ref, const std::string& option) {
  baseline_ref_ = ref;
  best_of_ = 0;
  before_.reset();
  named_.reset();
  if (ref.rfind("best-of-", 0) == 0) {
    best_of_ = std::atoi(ref.c_str() + 8);
    if (best_of_ < 1)
      throw InputError(SourceLoc{}, option,
                       "'" + ref + "': write best-of-N with N ≥ 1 (e.g. best-of-5)");
    return;
  }
  before_ = end_of_day(ref);
  if (ref != "previous" && !before_)
    named_ = static_cast<size_t>(&named(ref, option) - sessions_.data());
}

std::vector<SessionRuns> SessionPick::baselines(const std::string& case_name) const {
  std::vector<SessionRuns> out;
  if (named_) {
    const SessionInfo& s = sessions_[*named_];
    out.push_back({s.label, store_.session_runs(s.id, case_name)});
    return out;
  }
  for (size_t i = current_; i-- > 0;) {
    const SessionInfo& s = sessions_[i];
    if (before_ && s.started_at >= *before_) continue;
    if (!store_.session_has_runs(s.id, case_name)) continue;
    out.insert(out.begin(), SessionRuns{s.label, store_.session_runs(s.id, case_name)});
    if (static_cast<int>(out.size()) >= std::max(1, best_of_)) break;
  }
  return out;
}

std::string SessionPick::baseline_heading(const std::vector<std::string>& used) const {
  if (named_) return sessions_[*named_].label;
  if (used.size() == 1 && best_of_ == 0) return fmt::format("{} ({})", used.front(), baseline_ref_);
  if (!used.empty()) return fmt::format("{} ({})", baseline_ref_, fmt::join(used, ", "));
  return baseline_ref_;
}

}  // namespace aerun
