// `aerun history METRIC --case X`: one metric of a case's points over the sessions that ran it,
// each session's value judged against the previous session's (or a baseline's) as `aerun regress`
// judges it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/report/regress.hpp"

namespace aerun {

// One point in one session: the median of its ok runs' values, or why there is none.
struct HistoryCell {
  std::optional<double> median, min, max;
  int n = 0;
  std::string status;  // "" when measured; else "missing" or the runs' statuses ("2 oom")
  // Against the previous session (or the baseline); none for the first or an unjudged one.
  std::optional<RegressVerdict> verdict;
};

struct HistoryPoint {
  std::string point;               // "hidden=64 layers=2"
  std::vector<HistoryCell> cells;  // one per session, oldest first
};

struct History {
  std::string case_name, metric, unit;
  Better better = Better::Unknown;
  std::vector<SessionRuns> sessions;  // oldest first (their runs are not kept: labels only)
  std::vector<double> started;        // each session's start (epoch s)
  std::string baseline;               // the session every other is compared with ("": previous)
  std::vector<HistoryPoint> points;
};

// `sessions` oldest first, already filtered to the runs wanted. baseline: a label among them, or
// "" to compare each session with the one before it.
History build_history(const std::string& case_name, const CaseSpec* spec, const std::string& metric,
                      std::vector<SessionRuns> sessions, const std::vector<double>& started,
                      const std::string& baseline, const RegressOptions& opts);

std::string render_history_markdown(const History& h);
std::string render_history_csv(const History& h);
// gnuplot: one line per point over the sessions (labels on the x axis), regressions ringed in
// red, the baseline session marked; writes <basename>.svg and <basename>.png.
std::string history_gnuplot_script(const History& h, const std::string& basename);

}  // namespace aerun
