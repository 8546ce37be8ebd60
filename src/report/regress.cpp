#include "report/mann_whitney.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>

#include "aerun/judge/run_status.hpp"
#include "aerun/report/regress.hpp"
#include "aerun/util/secret_text.hpp"

namespace aerun {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A point: its parameters without the repeat, sorted by name (the key of a point across
// sessions and versions), and as first seen (for people).
struct Point {
  std::string shown;
  std::vector<const RunRecord*> runs;
};

std::string canonical_point(const RunRecord& r) {
  std::vector<std::string> parts;
  for (const auto& [n, v] : r.params) parts.push_back(n + "=" + shown_param(n, v.text()));
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += p + '\x1f';
  // A point on one system is compared with itself on that system, never with another machine's
  // (docs/systems.md): the system is part of the point.
  if (!r.system.empty()) out += "\x1esystem=" + r.system;
  return out;
}

std::map<std::string, Point> points_of(const std::vector<RunRecord>& runs) {
  std::map<std::string, Point> out;
  for (const auto& r : runs) {
    Point& p = out[canonical_point(r)];
    if (p.shown.empty()) p.shown = point_text(r);
    p.runs.push_back(&r);
  }
  return out;
}

bool any_ok(const Point* p) {
  return p && std::any_of(p->runs.begin(), p->runs.end(),
                          [](const RunRecord* r) { return r->status == run_status::ok; });
}

std::string statuses(const Point* p) {
  std::map<std::string, int> n;
  for (const RunRecord* r : p->runs) ++n[r->status];
  std::string out;
  for (const auto& [s, k] : n) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", k, s);
  return out;
}

std::vector<double> values_of(const Point* p, const std::string& metric) {
  std::vector<double> out;
  if (!p) return out;
  for (const RunRecord* r : p->runs)
    if (r->status == run_status::ok)
      if (auto v = run_metric(*r, metric)) out.push_back(*v);
  return out;
}

// Judges one point × metric with values on both sides.
void judge(RegressRow& row, const RegressOptions& o) {
  const double base = median_of(row.base_values), cur = median_of(row.cur_values);
  row.base_median = base;
  row.cur_median = cur;
  row.base_n = static_cast<int>(row.base_values.size());
  row.cur_n = static_cast<int>(row.cur_values.size());
  if (base == 0) {
    row.verdict = cur == 0 ? RegressVerdict::Unchanged : RegressVerdict::Changed;
    row.note = "the baseline's median is 0: no relative change";
    return;
  }
  row.change = cur / base - 1;
  if (std::fabs(*row.change) <= o.tolerance + 1e-12) {
    row.verdict = RegressVerdict::Unchanged;
    return;
  }
  if (row.better == Better::Unknown) {
    row.verdict = RegressVerdict::Changed;
    row.note = "no direction: set `better: higher|lower` on the metric";
    return;
  }
  const bool up = *row.change > 0;
  const bool worse = (row.better == Better::Lower) == up;
  // One-sided: is the current side larger (up) or smaller than the baseline?
  row.p_value = up ? mann_whitney_greater(row.cur_values, row.base_values)
                   : mann_whitney_greater(row.base_values, row.cur_values);
  if (row.cur_n < o.min_repeats || row.base_n < o.min_repeats) {
    row.verdict = RegressVerdict::Noisy;
    row.note = fmt::format("{} and {} ok runs; a verdict needs {} on each side (--min-repeats)",
                           row.base_n, row.cur_n, o.min_repeats);
    return;
  }
  if (*row.p_value <= o.alpha) {
    row.verdict = worse ? RegressVerdict::Regressed : RegressVerdict::Improved;
    return;
  }
  row.verdict = RegressVerdict::Noisy;
  row.note = fmt::format("the repeats overlap: p = {:.3f} > {:g}", *row.p_value, o.alpha);
}

}  // namespace

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string point_text(const RunRecord& r) {
  std::string out;
  for (const auto& [n, v] : r.params)
    out += (out.empty() ? "" : " ") + n + "=" + shown_param(n, v.text());
  if (out.empty()) out = "(the case's one point)";
  return r.system.empty() ? out : out + " on " + r.system;
}

std::optional<double> run_metric(const RunRecord& r, const std::string& metric) {
  if (metric == "startup_s") return r.startup_s;
  if (metric == "wall_s") return r.wall_s;
  if (const MetricValue* m = r.metric(metric)) return m->value;
  return std::nullopt;
}

Better metric_direction(const std::string& name, const std::string& unit,
                        const std::string& declared) {
  if (declared == "higher") return Better::Higher;
  if (declared == "lower") return Better::Lower;
  const std::string u = lower(unit), n = lower(name);
  if (contains(u, "/s") || contains(u, "/sec") || contains(u, "per s") || contains(u, "flop"))
    return Better::Higher;
  if (u == "s" || u == "ms" || u == "us" || u == "µs" || u == "ns" || u == "min" || u == "h" ||
      u == "sec" || u == "seconds")
    return Better::Lower;
  for (const char* w : {"throughput", "tflops", "flops", "per_s", "per_sec", "_per_second",
                        "samples_per", "tokens_per", "sps", "tps", "mfu", "bandwidth"})
    if (contains(n, w)) return Better::Higher;
  for (const char* w : {"_ms", "_s", "_sec", "_seconds", "_min"})
    if (ends_with(n, w)) return Better::Lower;
  for (const char* w : {"time", "latency", "startup", "wall", "loss", "duration"})
    if (contains(n, w)) return Better::Lower;
  return Better::Unknown;
}

const char* to_string(Better b) {
  return b == Better::Higher ? "higher" : b == Better::Lower ? "lower" : "";
}

const char* to_string(RegressVerdict v) {
  switch (v) {
    case RegressVerdict::NewlyFailing:
      return "newly_failing";
    case RegressVerdict::Regressed:
      return "regressed";
    case RegressVerdict::Noisy:
      return "noisy";
    case RegressVerdict::Missing:
      return "missing";
    case RegressVerdict::Failing:
      return "failing";
    case RegressVerdict::Improved:
      return "improved";
    case RegressVerdict::Fixed:
      return "fixed";
    case RegressVerdict::New:
      return "new";
    case RegressVerdict::Changed:
      return "changed";
    case RegressVerdict::Unchanged:
      return "unchanged";
  }
  return "?";
}

const std::vector<RegressVerdict>& regress_verdicts() {
  using V = RegressVerdict;
  static const std::vector<V> v{V::NewlyFailing, V::Regressed, V::Noisy, V::Missing, V::Failing,
                                V::Improved,     V::Fixed,     V::New,   V::Changed, V::Unchanged};
  return v;
}

int RegressReport::count(RegressVerdict verdict) const {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(),
                                        [&](const RegressRow& r) { return r.verdict == verdict; }));
}

std::vector<RegressRow> compare_with_system(const std::string& case_name, const CaseSpec* spec,
                                            const SessionRuns& base, const std::string& base_system,
                                            const SessionRuns& current,
                                            const RegressOptions& opts) {
  std::vector<RegressRow> out;
  if (base.runs.empty()) return out;
  std::vector<std::string> others;  // the other systems, as first met
  for (const RunRecord& r : current.runs)
    if (r.system != base_system &&
        std::find(others.begin(), others.end(), r.system) == others.end())
      others.push_back(r.system);
  for (const std::string& system : others) {
    // The base system's runs stand for that point on this system: the point is the same.
    SessionRuns b = base;
    for (RunRecord& r : b.runs) r.system = system;
    SessionRuns cur{current.label, {}};
    for (const RunRecord& r : current.runs)
      if (r.system == system) cur.runs.push_back(r);
    auto rows = compare_case(case_name, spec, {b}, cur, opts);
    out.insert(out.end(), std::make_move_iterator(rows.begin()),
               std::make_move_iterator(rows.end()));
  }
  return out;
}

std::vector<RegressRow> compare_case(const std::string& case_name, const CaseSpec* spec,
                                     const std::vector<SessionRuns>& baselines,
                                     const SessionRuns& current, const RegressOptions& opts) {
  const auto cur_points = points_of(current.runs);
  std::vector<std::map<std::string, Point>> base_points;
  for (const auto& b : baselines) base_points.push_back(points_of(b.runs));
  std::map<std::string, std::string> all;  // canonical -> shown
  for (const auto& [k, p] : cur_points) all.emplace(k, p.shown);
  for (const auto& bp : base_points)
    for (const auto& [k, p] : bp) all.emplace(k, p.shown);

  auto unit_of = [&](const std::string& metric) -> std::pair<std::string, std::string> {
    if (metric == "startup_s" || metric == "wall_s") return {"s", "lower"};
    if (spec)
      for (const auto& m : spec->metrics)
        if (m.name == metric) return {m.unit, m.better};
    for (const auto& r : current.runs)
      if (const MetricValue* m = r.metric(metric)) return {m->unit, ""};
    return {"", ""};
  };

  std::vector<RegressRow> rows;
  for (const auto& [key, shown] : all) {
    const auto c = cur_points.find(key);
    const Point* cur = c == cur_points.end() ? nullptr : &c->second;
    std::vector<std::pair<const Point*, const std::string*>> bases;  // point, session label
    for (size_t i = 0; i < base_points.size(); ++i) {
      const auto b = base_points[i].find(key);
      if (b != base_points[i].end()) bases.emplace_back(&b->second, &baselines[i].label);
    }
    RegressRow status;
    status.case_name = case_name;
    status.point = shown;
    status.cur_session = current.label;
    if (!bases.empty()) status.base_session = *bases.back().second;
    const bool base_ok =
        std::any_of(bases.begin(), bases.end(), [](const auto& b) { return any_ok(b.first); });
    if (!cur) {
      status.verdict = RegressVerdict::Missing;
      status.note = "no run in the current session";
      rows.push_back(status);
      continue;
    }
    if (bases.empty()) {
      status.verdict = RegressVerdict::New;
      status.note = statuses(cur);
      rows.push_back(status);
      continue;
    }
    if (!any_ok(cur)) {
      status.verdict = base_ok ? RegressVerdict::NewlyFailing : RegressVerdict::Failing;
      status.note = statuses(cur);
      rows.push_back(status);
      continue;
    }
    if (!base_ok) {
      status.verdict = RegressVerdict::Fixed;
      status.note = "baseline: " + statuses(bases.back().first);
      rows.push_back(status);
      continue;
    }
    // Metrics: those asked for, else every metric an ok run has on either side, and the times.
    std::vector<std::string> metrics = opts.metrics;
    if (metrics.empty()) {
      auto add = [&](const Point* p) {
        for (const RunRecord* r : p->runs) {
          if (r->status != run_status::ok) continue;
          for (const auto& m : r->metrics)
            if (std::find(metrics.begin(), metrics.end(), m.name) == metrics.end())
              metrics.push_back(m.name);
        }
      };
      add(cur);
      for (const auto& b : bases) add(b.first);
      for (const char* t : {"startup_s", "wall_s"})
        if (!values_of(cur, t).empty()) metrics.push_back(t);
    }
    for (const std::string& metric : metrics) {
      RegressRow row = status;
      row.metric = metric;
      const auto [unit, declared] = unit_of(metric);
      row.unit = unit;
      row.better = metric_direction(metric, unit, declared);
      row.cur_values = values_of(cur, metric);
      // The baseline: the session whose median is best (the latest, without a direction).
      for (const auto& [bp, label] : bases) {
        std::vector<double> v = values_of(bp, metric);
        if (v.empty()) continue;
        const bool better =
            row.base_values.empty() || row.better == Better::Unknown ||
            (row.better == Better::Higher && median_of(v) > median_of(row.base_values)) ||
            (row.better == Better::Lower && median_of(v) < median_of(row.base_values));
        if (better) {
          row.base_values = std::move(v);
          row.base_session = *label;
        }
      }
      if (row.cur_values.empty() && row.base_values.empty()) continue;
      if (row.cur_values.empty()) {
        row.verdict = RegressVerdict::Missing;
        row.note = "the current runs did not report it";
      } else if (row.base_values.empty()) {
        row.verdict = RegressVerdict::New;
        row.note = "the baseline's runs did not report it";
      } else {
        judge(row, opts);
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace aerun
