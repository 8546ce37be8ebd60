#include "aerun/report/session_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "aerun/judge/run_status.hpp"
#include "aerun/report/env_record_diff.hpp"
#include "aerun/report/regress.hpp"
#include "aerun/util/calendar_time.hpp"
#include "aerun/util/shell_quote.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

std::string shown(std::string_view s) {
  return s.empty() ? "-" : printable(s);
}

std::string dirty(const std::optional<bool>& d) {
  return !d ? "-" : *d ? "uncommitted changes" : "clean";
}

// "name digest" lines -> name -> first 16 hex digits.
std::map<std::string, std::string> case_files(const std::string& cases) {
  std::map<std::string, std::string> out;
  size_t b = 0;
  while (b < cases.size()) {
    size_t e = cases.find('\n', b);
    if (e == std::string::npos) e = cases.size();
    const std::string line = cases.substr(b, e - b);
    const size_t sp = line.find(' ');
    if (sp != std::string::npos) out[line.substr(0, sp)] = line.substr(sp + 1, 16);
    b = e + 1;
  }
  return out;
}

std::string params_text(const RunRecord& r) {
  std::string s;
  for (const auto& [n, v] : r.params)
    s += fmt::format("{}{}={}", s.empty() ? "" : " ", n, v.text());
  return s.empty() ? "(no parameters)" : printable(s);
}

}  // namespace

RunDiff diff_sessions(const SessionSide& a, const SessionSide& b, bool all) {
  RunDiff d;
  std::string& o = d.text;
  const auto head = [](const char* which, const SessionSide& s) {
    return fmt::format("{}  session {}  ({}, started {}, {} run{})\n", which,
                       printable(s.info.label), shown(s.info.kind),
                       format_calendar_time(s.info.started_at, "%Y-%m-%d %H:%M:%S UTC"),
                       s.runs.size(), s.runs.size() == 1 ? "" : "s");
  };
  o += head("A", a) + head("B", b);

  // Where and with what.
  std::vector<std::array<std::string, 3>> rows = {
      {"host", shown(a.info.host), shown(b.info.host)},
      {"cluster", shown(a.info.cluster), shown(b.info.cluster)},
      {"scheduler", shown(a.info.scheduler), shown(b.info.scheduler)},
      {"user", shown(a.info.user), shown(b.info.user)},
      {"aerun", shown(a.info.aerun_version), shown(b.info.aerun_version)},
      {"git commit", shown(a.info.git_commit), shown(b.info.git_commit)},
      {"git state", dirty(a.info.git_dirty), dirty(b.info.git_dirty)}};
  const auto fa = case_files(a.info.cases), fb = case_files(b.info.cases);
  std::vector<std::string> case_names;
  for (const auto& [n, digest] : fa) case_names.push_back(n);
  for (const auto& [n, digest] : fb)
    if (!fa.count(n)) case_names.push_back(n);
  for (const auto& n : case_names) {
    const auto ia = fa.find(n), ib = fb.find(n);
    rows.push_back({"case " + n + " file", ia == fa.end() ? "(not run)" : ia->second,
                    ib == fb.end() ? "(not run)" : ib->second});
  }
  int fields_differ = 0;
  std::string lines;
  for (const auto& [name, va, vb] : rows) {
    if (va != vb) ++fields_differ;
    if (va != vb || all) {
      std::string line = fmt::format("  {:<20} {:<26} {}", name, va, vb);
      lines += line + "\n";
    }
  }
  o += fmt::format("the sessions ({} differ, {} the same)\n", fields_differ,
                   rows.size() - static_cast<size_t>(fields_differ));
  o += lines;

  const EnvRecordDiff record =
      diff_env_records(a.env ? &*a.env : nullptr, b.env ? &*b.env : nullptr, all);
  o += record.text;

  // The runs, matched by key.
  std::map<std::string, const RunRecord*> in_b;
  for (const auto& r : b.runs) in_b[r.key] = &r;
  size_t both = 0, only_a = 0;
  std::vector<std::string> status_changes;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> values;
  std::vector<std::string> metric_order;
  std::map<std::string, std::string> units;
  for (const auto& ra : a.runs) {
    const auto it = in_b.find(ra.key);
    if (it == in_b.end()) {
      ++only_a;
      continue;
    }
    ++both;
    const RunRecord& rb = *it->second;
    if (ra.status != rb.status)
      status_changes.push_back(fmt::format("    {}  {}  {}: {} -> {}", ra.key.substr(0, 12),
                                           ra.case_name, params_text(ra), ra.status, rb.status));
    if (ra.status != run_status::ok || rb.status != run_status::ok) continue;
    for (const auto& ma : ra.metrics) {
      const MetricValue* mb = rb.metric(ma.name);
      if (!mb) continue;
      auto& v = values[ma.name];
      if (v.first.empty()) metric_order.push_back(ma.name);
      v.first.push_back(ma.value);
      v.second.push_back(mb->value);
      units[ma.name] = ma.unit;
    }
  }
  const size_t only_b = b.runs.size() - both;
  o += fmt::format(
      "runs ({} in both, {} only in A, {} only in B{})\n", both, only_a, only_b,
      status_changes.empty() ? "" : fmt::format(", {} changed status", status_changes.size()));
  const size_t shown_max = all ? status_changes.size() : 20;
  for (size_t i = 0; i < status_changes.size() && i < shown_max; ++i) o += status_changes[i] + "\n";
  if (status_changes.size() > shown_max)
    o += fmt::format("    ... {} more (--all)\n", status_changes.size() - shown_max);
  if (!metric_order.empty()) {
    o += "metrics (median over the runs ok in both sessions)\n";
    for (const auto& n : metric_order) {
      const auto& [va, vb] = values[n];
      const double ma = median_of(va), mb = median_of(vb);
      const std::string unit = units[n].empty() ? "" : " " + units[n];
      std::string note;
      if (ma != 0 && std::isfinite(ma) && std::isfinite(mb)) {
        const double pct = (mb / ma - 1) * 100;
        note = std::fabs(pct) < 0.05 ? "(same)" : fmt::format("{:+.1f} %", pct);
      }
      note += fmt::format("{}n={}", note.empty() ? "" : "  ", va.size());
      std::string line =
          fmt::format("  {:<20} {:<26} {:<26} {}", n, format_number(ma, ".6g") + unit,
                      format_number(mb, ".6g") + unit, note);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      o += line + "\n";
    }
  }
  d.differs = fields_differ > 0 || record.different > 0 || only_a > 0 || only_b > 0;
  return d;
}

}  // namespace aerun
