#include "aerun/judge/run_status.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <ostream>
#include <set>
#include <unordered_map>

#include "aerun/run/search_runner.hpp"
#include "aerun/run/signal_watch.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {

// One point of the rest of the sweep (every parameter but the searched and derived ones): its
// candidate values in search order, and the planned runs (repeats) of each.
struct SearchPoint {
  ParamList rest;
  std::string label;  // the parameters of `rest` that differ between points, e.g. "method=l2l"
  std::vector<long long> candidates;
  std::map<long long, std::vector<PlannedRun>> runs;
};

bool largest(const SearchSpec& s) {
  return s.goal == "largest_ok";
}

// The planned runs of a search case grouped by point, in sweep order. Values of the searched
// parameter that `exclude` or the selector drop are no candidates of their point.
std::vector<SearchPoint> plan_search(const CaseSpec& spec, const RunSelector* selector,
                                     const LaunchSetup& launch) {
  const SearchSpec& s = *spec.search;
  std::set<std::string> derived;
  for (const auto& d : spec.derive) derived.insert(d.name);
  std::vector<SearchPoint> points;
  std::unordered_map<std::string, size_t> index;
  plan_runs(spec, PlanOptions{selector, /*with_keys=*/true, &launch}, [&](const PlannedRun& r) {
    ParamList rest;
    long long value = 0;
    std::string id;  // length-prefixed name=value pairs of rest
    for (const auto& [name, v] : r.params) {
      if (name == s.param) {
        value = std::llround(v.number().value_or(0));
      } else if (!derived.count(name)) {
        rest.emplace_back(name, v);
        id += fmt::format("{}:{}{}:{}", name.size(), name, v.text().size(), v.text());
      }
    }
    const auto [it, fresh] = index.emplace(id, points.size());
    if (fresh) points.push_back({std::move(rest), "", {}, {}});
    SearchPoint& p = points[it->second];
    auto& runs = p.runs[value];
    if (runs.empty()) p.candidates.push_back(value);
    runs.push_back(r);
    return true;
  });
  for (auto& p : points) {
    std::sort(p.candidates.begin(), p.candidates.end());
    if (!largest(s)) std::reverse(p.candidates.begin(), p.candidates.end());
  }
  // Label each point by the parameters that tell it apart from the others.
  if (!points.empty())
    for (size_t k = 0; k < points.front().rest.size(); ++k) {
      const std::string& name = points.front().rest[k].first;
      const Value& first = points.front().rest[k].second;
      const bool varies = std::any_of(points.begin(), points.end(), [&](const SearchPoint& p) {
        const Value* v = find_param(p.rest, name);
        return !v || v->text() != first.text();
      });
      if (!varies) continue;
      for (auto& p : points) {
        const Value* v = find_param(p.rest, name);
        if (!p.label.empty()) p.label += ' ';
        p.label += name + "=" + (v ? v->text() : "");
      }
    }
  return points;
}

// A probe's outcome from the statuses of its runs (status_of(key): nullopt = no such run):
// pass when every run is ok, fail when any run ended otherwise (oom, failed, timeout, ...);
// nullopt while undecided, with the status that keeps it so in *pending.
std::optional<Probe> probe_outcome(
    long long value, const std::vector<PlannedRun>& runs,
    const std::function<std::optional<std::string>(const std::string&)>& status_of,
    std::string* pending) {
  static const std::set<std::string> unfinished{run_status::running, run_status::interrupted,
                                                run_status::pending};
  Probe p{value, true, run_status::ok};
  std::string waiting;
  for (const auto& r : runs) {
    const auto st = status_of(r.key);
    if (!st || unfinished.count(*st)) {
      if (waiting.empty()) waiting = st ? *st : "not run";
    } else if (*st != run_status::ok && p.pass) {
      p.pass = false;
      p.status = *st;
    }
  }
  if (p.pass && !waiting.empty()) {
    if (pending) *pending = waiting;
    return std::nullopt;
  }
  return p;
}

std::string subject(const SearchSpec& s, const std::string& label) {
  return label.empty() ? fmt::format("search {}", s.param)
                       : fmt::format("search {} for {}", s.param, label);
}

// "[aerun] search layers for method=l2l: largest ok = 78 (probes: 16 ok, 72 ok, 100 oom, ...)"
std::string result_line(const SearchSpec& s, const SearchOutcome& o, size_t candidates, bool at_end,
                        long long first) {
  const bool big = largest(s);
  std::string text = subject(s, o.point) + ": ";
  if (!o.finished) {
    text += fmt::format("stopped before the end (probe {})", o.stopped_by);
    if (o.value) text += fmt::format("; {} ok so far = {}", big ? "largest" : "smallest", *o.value);
  } else if (!o.value) {
    const auto& p = o.probes.front();
    text += fmt::format("no ok value: the {}, {}, failed ({}); nothing {} was tried",
                        big ? "smallest" : "largest", first, p.status, big ? "larger" : "smaller");
  } else {
    text += fmt::format("{} ok = {}", big ? "largest" : "smallest", *o.value);
    if (at_end && candidates > 1)
      text += fmt::format(", the {} bound ({} values were not tried)", big ? "upper" : "lower",
                          big ? "larger" : "smaller");
  }
  std::vector<std::string> probes;
  for (const auto& p : o.probes) probes.push_back(fmt::format("{} {}", p.value, p.status));
  return fmt::format("[aerun] {} (probes: {})\n", text, fmt::join(probes, ", "));
}

}  // namespace

int SearchSummary::exit_code() const {
  if (stop_signal) return 128 + stop_signal;
  for (const auto& p : points)
    if (!p.finished || !p.value) return 1;
  return 0;
}

namespace {

// Probes already decided by runs in the store, from an earlier (maybe interrupted) search.
void replay_stored(Store& store, const std::string& case_name,
                   const std::vector<SearchPoint>& points, std::vector<Bisection>& search,
                   SearchSummary& sum) {
  std::unordered_map<std::string, std::string> status_by_key;
  for (auto& r : store.list(RunFilter::of_case(case_name))) status_by_key[r.key] = r.status;
  const auto status_of = [&](const std::string& key) -> std::optional<std::string> {
    const auto it = status_by_key.find(key);
    if (it == status_by_key.end()) return std::nullopt;
    return it->second;
  };
  for (size_t i = 0; i < points.size(); ++i) {
    const auto stored = [&](long long v) {
      return probe_outcome(v, points[i].runs.at(v), status_of, nullptr);
    };
    // Replay the bisection's own path first (a rerun prints the same probes in the same
    // order), then every other stored outcome of this point's candidates.
    for (auto v = search[i].next(); v; v = search[i].next()) {
      const auto probe = stored(*v);
      if (!probe) break;
      search[i].record(*probe);
      ++sum.reused;
    }
    for (long long v : points[i].candidates)
      if (!search[i].known(v))
        if (const auto probe = stored(v)) {
          search[i].record(*probe);
          ++sum.reused;
        }
  }
}

// Each point's result, with the bisection's warnings, printed and kept in sum.
void report_outcomes(const SearchSpec& s, const std::vector<SearchPoint>& points,
                     const std::vector<Bisection>& search, const std::vector<std::string>& stopped,
                     SearchSummary& sum, std::ostream& out) {
  for (size_t i = 0; i < points.size(); ++i) {
    const Bisection& b = search[i];
    SearchOutcome o;
    o.point = points[i].label;
    o.value = b.result();
    o.finished = stopped[i].empty() && b.done();
    o.stopped_by = stopped[i];
    o.probes = b.probes();
    o.warnings = b.warnings();
    for (const auto& w : o.warnings)
      out << fmt::format(
          "[aerun] warning: {} is not monotonic: {}; the search assumes it is, and its result is "
          "the last ok value before the first failure\n",
          subject(s, o.point), w);
    out << result_line(s, o, b.candidates().size(), b.at_end(), b.candidates().front());
    sum.points.push_back(std::move(o));
  }
}

}  // namespace

SearchRunner::SearchRunner(const CaseSpec& spec, Store& store, RunnerOptions opts,
                           std::ostream& out)
    : spec_(spec), store_(store), opts_(std::move(opts)), out_(out) {}

SearchSummary SearchRunner::run(const RunSelector* selector, const LaunchSetup& launch) {
  const SearchSpec& s = *spec_.search;
  const std::vector<SearchPoint> points = plan_search(spec_, selector, launch);
  std::vector<Bisection> search;
  size_t most = 0;
  for (const auto& p : points) {
    search.emplace_back(p.candidates);
    most = std::max(most, p.candidates.size());
  }
  std::vector<std::string> stopped(points.size());  // why a point's search cannot go on
  SearchSummary sum;
  out_ << fmt::format(
      "[aerun] search {} from {} to {} (step {}, {}) for {} point{}: at most {} probes each\n",
      s.param, s.min, s.max, s.step, s.goal, points.size(), points.size() == 1 ? "" : "s",
      Bisection::max_probes(most));

  if (!opts_.force) replay_stored(store_, spec_.name, points, search, sum);

  // Rounds: the next probe of every unfinished point, run together. One signal watch spans them
  // all: a Ctrl-C while one round's outcomes are read stops the search before the next round.
  SignalWatch signals;
  CaseRunner runner(spec_, store_, opts_, out_);
  const auto status_in_store = [&](const std::string& key) -> std::optional<std::string> {
    if (auto r = store_.find_by_key(key)) return r->status;
    return std::nullopt;
  };
  const auto stop = [&](int signal) {
    sum.stop_signal = signal;
    for (size_t i = 0; i < points.size(); ++i)
      if (stopped[i].empty() && !search[i].done()) stopped[i] = run_status::interrupted;
  };
  for (;;) {
    if (const int signal = signals.drain()) {
      stop(signal);
      break;
    }
    std::vector<PlannedRun> batch;
    std::vector<std::pair<size_t, long long>> asked;
    for (size_t i = 0; i < points.size(); ++i) {
      if (!stopped[i].empty()) continue;
      if (const auto v = search[i].next()) {
        const auto& runs = points[i].runs.at(*v);
        batch.insert(batch.end(), runs.begin(), runs.end());
        asked.emplace_back(i, *v);
      }
    }
    if (batch.empty()) break;
    const RunSummary rs = runner.run(batch);
    for (const auto& [i, v] : asked) {
      std::string pending;
      if (auto probe = probe_outcome(v, points[i].runs.at(v), status_in_store, &pending)) {
        search[i].record(*probe);
        ++sum.probes_run;
      } else {
        stopped[i] = fmt::format("{} {}", v, pending);
      }
    }
    if (rs.stop_signal) {
      stop(rs.stop_signal);
      break;
    }
  }

  report_outcomes(s, points, search, stopped, sum, out_);
  out_ << fmt::format("[aerun] search {}: {} probe{} run, {} reused from the store\n", spec_.name,
                      sum.probes_run, sum.probes_run == 1 ? "" : "s", sum.reused);
  out_.flush();
  return sum;
}

void print_search_plan(const CaseSpec& spec, const RunSelector* selector, const LaunchSetup& launch,
                       std::ostream& out) {
  const SearchSpec& s = *spec.search;
  const std::vector<SearchPoint> points = plan_search(spec, selector, launch);
  out << fmt::format("# case {} ({}): workdir {}\n", spec.name, printable(spec.file),
                     printable(spec.workdir));
  out << fmt::format(
      "# search {} from {} to {} (step {}, {}): adaptive, each probe after the first depends on "
      "the outcomes before it\n",
      s.param, s.min, s.max, s.step, s.goal);
  size_t first_runs = 0, most_runs = 0;
  for (const auto& p : points) {
    const long long first = p.candidates.front();
    const int most = Bisection::max_probes(p.candidates.size());
    const auto& runs = p.runs.at(first);
    out << fmt::format("# {}{}first probe {}={} of {} values, at most {} probes\n", p.label,
                       p.label.empty() ? "" : ": ", s.param, first, p.candidates.size(), most);
    for (const auto& r : runs) out << r.command << '\n';
    first_runs += runs.size();
    most_runs += static_cast<size_t>(most) * runs.size();
  }
  out << fmt::format("# {} point{} searched: {} first run{}, at most {} runs\n", points.size(),
                     points.size() == 1 ? "" : "s", first_runs, first_runs == 1 ? "" : "s",
                     most_runs);
  out.flush();
}

}  // namespace aerun
