#include "aerun/report/html_report.hpp"
#include "aerun/util/secret_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>

#include "aerun/util/calendar_time.hpp"
#include "aerun/util/shown_text.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

std::string html(std::string_view s) {
  return html_escape(shown_text(s));
}

std::string when(double t) {
  return t <= 0 ? "" : format_calendar_time(t, "%Y-%m-%d %H:%M UTC");
}

const char* const kReportStyle = R"(
nav a{margin-right:1em}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}
.verdict-regressed,.verdict-newly_failing{color:#a40000;font-weight:600}
.verdict-improved,.verdict-fixed{color:#1a7f37}.verdict-noisy,.verdict-missing{color:#8a6d00}
.counts span{margin-right:1.2em}figure{margin:1em 0}figure img{max-width:100%;border:1px solid #eee}
td.reason{font-family:ui-monospace,monospace;font-size:.85em;max-width:50em;overflow-wrap:anywhere}
section{margin-bottom:2em})";

std::string page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         html(title) + "</title>\n<style>\n" + html_table_style() + kReportStyle +
         "\n</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
}

int count(const std::vector<RegressRow>& rows, RegressVerdict v) {
  int n = 0;
  for (const auto& r : rows) n += r.verdict == v;
  return n;
}

std::string counts_html(const std::vector<RegressRow>& rows) {
  std::string out = "<p class=\"counts\">";
  bool any = false;
  for (const auto& v : regress_verdicts())
    if (int n = count(rows, v)) {
      out += fmt::format("<span class=\"verdict-{0}\">{1} {0}</span>", to_string(v), n);
      any = true;
    }
  if (!any) out += "nothing compared";
  return out + "</p>\n";
}

std::string side(std::optional<double> m, int n, const std::string& unit) {
  if (!m) return "—";
  return fmt::format("{}{} (n={})", format_number(*m, ".4g"), unit.empty() ? "" : " " + unit, n);
}

std::string verdict_table(const std::vector<RegressRow>& rows) {
  std::string out =
      "<table>\n<thead><tr><th>point</th><th>metric</th><th>baseline</th><th>current</th>"
      "<th>change</th><th>p</th><th>verdict</th><th>note</th></tr></thead>\n<tbody>\n";
  for (const auto& r : rows) {
    if (r.verdict == RegressVerdict::Unchanged) continue;
    out += fmt::format(
        "<tr><td class=\"key\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}"
        "</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"verdict-{}\">{}</td>"
        "<td>{}</td></tr>\n",
        html(r.point), html(r.metric.empty() ? "(status)" : r.metric),
        html(side(r.base_median, r.base_n, r.unit)), html(side(r.cur_median, r.cur_n, r.unit)),
        r.change ? fmt::format("{:+.1f} %", *r.change * 100) : "",
        r.p_value ? fmt::format("{:.3g}", *r.p_value) : "", to_string(r.verdict),
        html(to_string(r.verdict)), html(r.note));
  }
  return out + "</tbody>\n</table>\n";
}

}  // namespace

std::string report_index_html(const ReportData& d) {
  std::string b = "<h1>aerun report</h1>\n";
  b += fmt::format("<p>Session <b>{}</b>{} · store {} · generated {}</p>\n", html(d.current),
                   d.baseline.empty() ? std::string(" (no baseline)")
                                      : " against <b>" + html(d.baseline) + "</b>",
                   html(d.store), when(d.generated_at));
  b += "<section>\n<h2>Cases</h2>\n<table>\n<thead><tr><th>case</th><th>title</th>"
       "<th>verdicts</th><th>failures</th></tr></thead>\n<tbody>\n";
  for (const auto& c : d.cases) {
    std::string v;
    for (const auto& name : regress_verdicts())
      if (int n = count(c.verdicts, name))
        v += fmt::format("<span class=\"verdict-{0}\">{1} {0}</span> ", to_string(name), n);
    b += fmt::format(
        "<tr><td class=\"key\"><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td>"
        "<td class=\"num\">{}</td></tr>\n",
        html(c.page), html(c.name), html(c.title), v.empty() ? "—" : v, c.failures.size());
  }
  b += "</tbody>\n</table>\n</section>\n";
  b += "<section>\n<h2>Sessions</h2>\n<table>\n<thead><tr><th>label</th><th>kind</th>"
       "<th>started</th><th>ended</th><th>host</th><th>cluster</th><th>scheduler</th>"
       "<th>user</th><th>git commit</th><th>aerun</th><th>cases</th></tr></thead>\n<tbody>\n";
  for (const auto& s : d.sessions) {
    std::string cases;
    for (size_t i = 0, j; i < s.cases.size(); i = j + 1) {
      j = s.cases.find('\n', i);
      if (j == std::string::npos) j = s.cases.size();
      const std::string line = s.cases.substr(i, j - i);
      const auto sp = line.find(' ');
      cases +=
          (cases.empty() ? "" : ", ") +
          html(sp == std::string::npos ? line : line.substr(0, sp) + " " + line.substr(sp + 1, 8));
    }
    b += fmt::format(
        "<tr><td class=\"key\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td></tr>\n",
        html(s.label), html(s.kind), when(s.started_at), s.ended_at ? when(*s.ended_at) : "",
        html(s.host), html(s.cluster), html(s.scheduler), html(s.user),
        html(s.git_commit.substr(0, 12)), s.git_dirty && *s.git_dirty ? " (dirty)" : "",
        html(s.aerun_version), cases);
  }
  b += "</tbody>\n</table>\n</section>\n";
  b += fmt::format(
      "<p class=\"legend\">A change within ±{:g} % of the baseline's median is unchanged; a "
      "verdict needs {} ok runs a side and a one-sided Mann-Whitney p ≤ {:g} (docs/nightly.md)."
      "</p>\n",
      d.options.tolerance * 100, d.options.min_repeats, d.options.alpha);
  return page("aerun report: " + d.current, b);
}

std::string report_case_html(const ReportData& d, const CaseReport& c) {
  std::string b = "<nav><a href=\"index.html\">← all cases</a></nav>\n";
  b += fmt::format("<h1>{}{}</h1>\n", html(c.name), c.title.empty() ? "" : ": " + html(c.title));
  if (!c.paper.empty()) b += "<p>" + html(c.paper) + "</p>\n";
  if (!c.note.empty()) b += "<p class=\"legend\">" + html(c.note) + "</p>\n";
  b += fmt::format("<section>\n<h2>{} against {}</h2>\n", html(d.current),
                   d.baseline.empty() ? "(no baseline)" : html(d.baseline));
  b += counts_html(c.verdicts);
  if (std::any_of(c.verdicts.begin(), c.verdicts.end(),
                  [](const RegressRow& r) { return r.verdict != RegressVerdict::Unchanged; }))
    b += verdict_table(c.verdicts);
  b += "</section>\n";
  if (!c.tables.empty()) {
    b += "<section>\n<h2>Tables</h2>\n";
    for (const auto& t : c.tables) b += render_html_table(t);
    b += "</section>\n";
  }
  if (!c.figures.empty()) {
    b += "<section>\n<h2>History</h2>\n";
    for (const auto& f : c.figures)
      b += fmt::format("<figure><img src=\"{}\" alt=\"{}\" width=\"900\"></figure>\n", html(f),
                       html(f));
    b += "</section>\n";
  }
  b += fmt::format("<section>\n<h2>Failures in {}</h2>\n", html(d.current));
  if (c.failures.empty()) {
    b += "<p>None.</p>\n";
  } else {
    b += "<table>\n<thead><tr><th>run</th><th>point</th><th>repeat</th><th>status</th>"
         "<th>why (the line that decided)</th><th>log</th></tr></thead>\n<tbody>\n";
    for (const auto& r : c.failures) {
      std::string point;
      for (const auto& [n, v] : r.params)
        point += (point.empty() ? "" : " ") + n + "=" + shown_param(n, v.text());
      b += fmt::format(
          "<tr><td class=\"key\">{}</td><td>{}</td><td class=\"num\">{}</td>"
          "<td class=\"status\">{}</td><td class=\"reason\">{}</td><td>{}</td></tr>\n",
          html(r.key.substr(0, 12)), html(point), r.repeat_index, html(r.status), html(r.reason),
          html(r.log_path));
    }
    b += "</tbody>\n</table>\n";
  }
  b += "</section>\n";
  return page("aerun report: " + c.name, b);
}

}  // namespace aerun
