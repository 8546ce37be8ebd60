#include "aerun/util/calendar_time.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>

#include "aerun/judge/run_status.hpp"
#include "aerun/report/history.hpp"
#include "aerun/report/plot.hpp"
#include "aerun/util/gnuplot_text.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

HistoryCell cell_of(const std::vector<const RunRecord*>& runs, const std::string& metric) {
  HistoryCell c;
  if (runs.empty()) {
    c.status = "missing";
    return c;
  }
  std::vector<double> v;
  std::map<std::string, int> failed;
  for (const RunRecord* r : runs) {
    if (r->status != run_status::ok) {
      ++failed[r->status];
      continue;
    }
    if (auto x = run_metric(*r, metric)) v.push_back(*x);
  }
  if (v.empty()) {
    for (const auto& [s, k] : failed)
      c.status += fmt::format("{}{} {}", c.status.empty() ? "" : ", ", k, s);
    if (c.status.empty()) c.status = "missing";
    return c;
  }
  c.median = median_of(v);
  c.min = *std::min_element(v.begin(), v.end());
  c.max = *std::max_element(v.begin(), v.end());
  c.n = static_cast<int>(v.size());
  return c;
}

std::string day(double t) {
  return format_calendar_time(t, "%Y-%m-%d %H:%M");
}

}  // namespace

History build_history(const std::string& case_name, const CaseSpec* spec, const std::string& metric,
                      std::vector<SessionRuns> sessions, const std::vector<double>& started,
                      const std::string& baseline, const RegressOptions& opts) {
  History h;
  h.case_name = case_name;
  h.metric = metric;
  h.baseline = baseline;
  h.started = started;
  std::string declared;
  if (metric == "startup_s" || metric == "wall_s") h.unit = "s";
  if (spec)
    for (const auto& m : spec->metrics)
      if (m.name == metric) {
        h.unit = m.unit;
        declared = m.better;
      }
  for (const auto& s : sessions)
    for (const auto& r : s.runs)
      if (const MetricValue* m = r.metric(metric); m && h.unit.empty()) h.unit = m->unit;
  h.better = metric_direction(metric, h.unit, declared);

  // Points in the order first seen, each session's runs of it.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::vector<const RunRecord*>>> runs;
  for (size_t i = 0; i < sessions.size(); ++i)
    for (const auto& r : sessions[i].runs) {
      const std::string p = point_text(r);
      auto [it, fresh] = runs.try_emplace(p, sessions.size());
      if (fresh) order.push_back(p);
      it->second[i].push_back(&r);
    }
  RegressOptions o = opts;
  o.metrics = {metric};
  size_t base = sessions.size();
  for (size_t i = 0; i < sessions.size(); ++i)
    if (sessions[i].label == baseline) base = i;
  std::vector<std::map<std::string, RegressVerdict>> verdicts(sessions.size());
  for (size_t i = 0; i < sessions.size(); ++i) {
    const size_t against = base < sessions.size() ? base : i - 1;
    if (i == 0 && base >= sessions.size()) continue;
    if (against == i) continue;
    for (const RegressRow& row : compare_case(case_name, spec, {sessions[against]}, sessions[i], o))
      verdicts[i][row.point] = row.verdict;
  }
  for (const auto& p : order) {
    HistoryPoint hp;
    hp.point = p;
    for (size_t i = 0; i < sessions.size(); ++i) {
      HistoryCell c = cell_of(runs[p][i], metric);
      const auto v = verdicts[i].find(p);
      if (v != verdicts[i].end()) c.verdict = v->second;
      hp.cells.push_back(std::move(c));
    }
    h.points.push_back(std::move(hp));
  }
  for (auto& s : sessions) s.runs.clear();
  h.sessions = std::move(sessions);
  return h;
}

std::string render_history_markdown(const History& h) {
  std::string out = fmt::format("### {} of case {} over {} session{}{}\n\n", h.metric, h.case_name,
                                h.sessions.size(), h.sessions.size() == 1 ? "" : "s",
                                h.unit.empty() ? "" : " (" + h.unit + ")");
  out += h.baseline.empty()
             ? "Each session is judged against the one before it.\n\n"
             : fmt::format("Each session is judged against the baseline {}.\n\n", h.baseline);
  out += "| session | started (UTC) | point | median | n | min–max | verdict |\n";
  out += "|:---|:---|:---|---:|---:|---:|:---|\n";
  for (size_t i = 0; i < h.sessions.size(); ++i)
    for (const auto& p : h.points) {
      const HistoryCell& c = p.cells[i];
      if (c.status == "missing" && !c.verdict) continue;
      const std::string label =
          h.sessions[i].label + (h.sessions[i].label == h.baseline ? " (baseline)" : "");
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", md_cell(label),
                         i < h.started.size() ? day(h.started[i]) : "", md_cell(p.point),
                         c.median ? format_number(*c.median, ".4g") : md_cell(c.status),
                         c.n ? std::to_string(c.n) : "",
                         c.median ? fmt::format("{}–{}", format_number(*c.min, ".4g"),
                                                format_number(*c.max, ".4g"))
                                  : "",
                         !c.verdict               ? std::string()
                         : is_failure(*c.verdict) ? fmt::format("**{}**", to_string(*c.verdict))
                                                  : std::string(to_string(*c.verdict)));
    }
  return out;
}

std::string render_history_csv(const History& h) {
  std::string out = "session,started,point,median,n,min,max,status,verdict\n";
  for (size_t i = 0; i < h.sessions.size(); ++i)
    for (const auto& p : h.points) {
      const HistoryCell& c = p.cells[i];
      auto num = [](std::optional<double> v) { return v ? fmt::format("{}", *v) : std::string(); };
      out +=
          fmt::format("{},{},{},{},{},{},{},{},{}\n", csv_field(h.sessions[i].label),
                      i < h.started.size() ? fmt::format("{}", h.started[i]) : "",
                      csv_field(p.point), num(c.median), c.n ? std::to_string(c.n) : "", num(c.min),
                      num(c.max), csv_field(c.status), c.verdict ? to_string(*c.verdict) : "");
    }
  return out;
}

std::string history_gnuplot_script(const History& h, const std::string& basename) {
  std::string body;
  body += gnuplot_comment(
              fmt::format("# aerun history {} --case {}: gnuplot {}.gp draws {}.svg and {}.png",
                          h.metric, h.case_name, basename, basename, basename)) +
          "\n";
  body += "set encoding utf8\nset termoption noenhanced\n";
  body += "set title " +
          gnuplot_string(fmt::format("{} of {} per session", h.metric, h.case_name)) + "\n";
  body +=
      "set ylabel " + gnuplot_string(h.metric + (h.unit.empty() ? "" : " (" + h.unit + ")")) + "\n";
  body +=
      "set grid ytics lc rgb '#dddddd'\nset key below box\nset xtics rotate by -30\nset bmargin "
      "7\n";
  body += "set offsets graph 0.03, graph 0.03, graph 0.08, graph 0.08\n";
  body += "set xtics (";
  for (size_t i = 0; i < h.sessions.size(); ++i)
    body += fmt::format("{}{} {}", i ? ", " : "", gnuplot_tic_label(h.sessions[i].label), i);
  body += ")\n";
  // The x range is the sessions' and, when no session measured a value (every run OOM: the night
  // it matters most), the y range is fixed: gnuplot refuses an empty plot ("x range is invalid").
  body += fmt::format("set xrange [-0.5:{}]\n", static_cast<double>(h.sessions.size()) - 0.5);
  bool measured = false;
  for (const auto& p : h.points)
    for (const auto& c : p.cells) measured = measured || c.median.has_value();
  if (!measured)
    body +=
        "set yrange [0:1]\nset label 'no measured value in these sessions' at graph 0.5, "
        "graph 0.5 center\n";
  for (size_t i = 0; i < h.sessions.size(); ++i)
    if (h.sessions[i].label == h.baseline)
      body += fmt::format(
          "set arrow from {0}, graph 0 to {0}, graph 1 nohead dt 2 lc rgb '#555555'\n"
          "set label 'baseline' at {0}, graph 0.97 offset 0.5,0 tc rgb '#555555'\n",
          i);
  std::string plots, marks;
  const size_t shown = std::min<size_t>(h.points.size(), 12);
  for (size_t k = 0; k < shown; ++k) {
    const HistoryPoint& p = h.points[k];
    body += fmt::format("$p{} << EOD\n", k);
    for (size_t i = 0; i < p.cells.size(); ++i)
      if (p.cells[i].median)
        body +=
            fmt::format("{} {} {} {}\n", i, *p.cells[i].median, *p.cells[i].min, *p.cells[i].max);
    body += "EOD\n";
    plots += fmt::format("{}$p{} using 1:2:3:4 with yerrorlines lc {} lw 2 pt 7 ps 1 title {}",
                         plots.empty() ? "" : ", \\\n     ", k, k + 1, gnuplot_string(p.point));
    std::string bad;
    for (size_t i = 0; i < p.cells.size(); ++i)
      if (p.cells[i].median && p.cells[i].verdict && is_failure(*p.cells[i].verdict))
        bad += fmt::format("{} {}\n", i, *p.cells[i].median);
    if (!bad.empty()) {
      body += fmt::format("$r{} << EOD\n{}EOD\n", k, bad);
      marks += fmt::format(
          ", \\\n     $r{} using 1:2 with points lc rgb '#cc0000' pt 6 ps 3 lw 2 "
          "title {}",
          k, gnuplot_string(marks.empty() ? "regressed" : ""));
    }
  }
  if (shown < h.points.size())
    body += fmt::format("set label {} at graph 0.01, graph 0.03\n",
                        gnuplot_string(fmt::format("{} of {} points drawn (--where selects)", shown,
                                                   h.points.size())));
  body += plots.empty() ? "plot NaN title 'no value'\n" : "plot " + plots + marks + "\n";
  return gnuplot_to_files(body, basename);
}

}  // namespace aerun
