// `aerun regress`: a session's runs against a baseline's, per case × point × metric; exit 1 when
// something regressed or newly fails (docs/nightly.md).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "aerun/case_loader.hpp"
#include "aerun/regress.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

struct RegressArgs {
  std::vector<std::string> cases;
  std::string baseline = "previous";
  std::string current;
  std::string tolerance = "10%";
  int min_repeats = 3;
  std::vector<std::string> metrics;
  std::string junit, json;
};

double parse_tolerance(const std::string& text) {
  std::string t = text;
  const bool percent = !t.empty() && t.back() == '%';
  if (percent) t.pop_back();
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || !(v >= 0))
    throw InputError(SourceLoc{}, "--tolerance",
                     "'" + text + "': write a fraction (0.1) or a percentage (10%)");
  return percent ? v / 100 : v;
}

std::string labels_of(const std::vector<SessionInfo>& sessions) {
  std::vector<std::string> l;
  for (auto it = sessions.rbegin(); it != sessions.rend() && l.size() < 8; ++it)
    l.push_back(it->label);
  return l.empty() ? "none"
                   : fmt::format("{}{}", fmt::join(l, ", "), sessions.size() > 8 ? ", ..." : "");
}

const SessionInfo& session_named(const std::vector<SessionInfo>& sessions, const Store& store,
                                 const std::string& ref, const std::string& option) {
  if (auto s = store.find_session(ref))
    for (const auto& x : sessions)
      if (x.id == s->id) return x;
  std::vector<std::string> labels;
  for (const auto& s : sessions) labels.push_back(s.label);
  const std::string near = nearest_key(ref, labels);
  throw InputError(
      SourceLoc{}, option,
      fmt::format("no session '{}'{} (latest: {})", ref,
                  near.empty() ? "" : " (did you mean '" + near + "'?)", labels_of(sessions)));
}

// The end of a calendar day (UTC) given as YYYY-MM-DD; nullopt when ref is no date.
std::optional<double> end_of_day(const std::string& ref) {
  std::tm tm{};
  const char* end = ::strptime(ref.c_str(), "%Y-%m-%d", &tm);
  if (!end || *end != '\0') return std::nullopt;
  return static_cast<double>(::timegm(&tm)) + 86400;
}

int regress_command(const Globals& g, const RegressArgs& a) {
  Store store = open_existing_store(g.resolved_db());
  const std::vector<SessionInfo> sessions = store.sessions();
  RegressOptions opts;
  opts.tolerance = parse_tolerance(a.tolerance);
  opts.min_repeats = a.min_repeats;
  opts.metrics = a.metrics;

  for (const auto& c : a.cases) require_case(store, c, g.resolved_db());
  // The current session: named, else the latest with runs of the cases asked for.
  auto runs_of = [&](const SessionInfo& s, const std::string& case_name) {
    return store.session_runs(s.id, case_name);
  };
  auto has_runs = [&](const SessionInfo& s) {
    if (a.cases.empty()) return store.session_has_runs(s.id, "");
    return std::any_of(a.cases.begin(), a.cases.end(),
                       [&](const std::string& c) { return store.session_has_runs(s.id, c); });
  };
  const SessionInfo* current = nullptr;
  if (!a.current.empty()) {
    current = &session_named(sessions, store, a.current, "--current");
  } else {
    for (auto it = sessions.rbegin(); it != sessions.rend() && !current; ++it)
      if (has_runs(*it)) current = &*it;
    if (!current)
      throw InputError(SourceLoc{}, "--current",
                       "no session with runs" +
                           (a.cases.empty() ? std::string() : " of the cases asked for") + " in " +
                           g.resolved_db());
  }
  const size_t cur_index = static_cast<size_t>(current - sessions.data());

  std::vector<std::string> cases = a.cases;
  if (cases.empty()) {
    for (const auto& r : runs_of(*current, ""))
      if (std::find(cases.begin(), cases.end(), r.case_name) == cases.end())
        cases.push_back(r.case_name);
  }
  for (const auto& c : cases) require_case(store, c, g.resolved_db());

  // The baseline sessions of a case: the ones before the current session that ran it.
  int best_of = 0;
  if (a.baseline.rfind("best-of-", 0) == 0) {
    best_of = std::atoi(a.baseline.c_str() + 8);
    if (best_of < 1)
      throw InputError(SourceLoc{}, "--baseline",
                       "'" + a.baseline + "': write best-of-N with N ≥ 1 (e.g. best-of-5)");
  }
  const std::optional<double> day = end_of_day(a.baseline);
  const SessionInfo* named = nullptr;
  if (a.baseline != "previous" && best_of == 0 && !day)
    named = &session_named(sessions, store, a.baseline, "--baseline");
  auto baselines_of = [&](const std::string& case_name) {
    std::vector<SessionRuns> out;
    if (named) {
      out.push_back({named->label, runs_of(*named, case_name)});
      return out;
    }
    for (size_t i = cur_index; i-- > 0;) {
      const SessionInfo& s = sessions[i];
      if (day && s.started_at >= *day) continue;
      if (!store.session_has_runs(s.id, case_name)) continue;
      auto runs = runs_of(s, case_name);
      out.insert(out.begin(), SessionRuns{s.label, std::move(runs)});
      if (static_cast<int>(out.size()) >= std::max(1, best_of)) break;
    }
    return out;
  };

  RegressReport report;
  report.current = current->label;
  report.baseline = named ? named->label : a.baseline;
  report.options = opts;
  std::vector<std::string> used;  // the baseline sessions compared with, for the heading
  for (const auto& case_name : cases) {
    SessionRuns cur{current->label, runs_of(*current, case_name)};
    const std::vector<SessionRuns> bases = baselines_of(case_name);
    for (const auto& b : bases)
      if (std::find(used.begin(), used.end(), b.label) == used.end()) used.push_back(b.label);
    std::optional<CaseSpec> spec;
    for (const auto& r : cur.runs) {
      std::error_code ec;
      if (r.case_file.empty() || !std::filesystem::exists(r.case_file, ec)) continue;
      try {
        spec = load_case(r.case_file);
      } catch (const std::exception&) {
      }
      break;
    }
    if (bases.empty())
      std::cerr << fmt::format(
          "aerun: note: case '{}' has no baseline session ({}): its points are "
          "new\n",
          case_name, a.baseline);
    auto rows = compare_case(case_name, spec ? &*spec : nullptr, bases, cur, opts);
    report.rows.insert(report.rows.end(), std::make_move_iterator(rows.begin()),
                       std::make_move_iterator(rows.end()));
  }
  if (!named && used.size() == 1 && best_of == 0)
    report.baseline = fmt::format("{} ({})", used.front(), a.baseline);
  else if (!named && !used.empty())
    report.baseline = fmt::format("{} ({})", a.baseline, fmt::join(used, ", "));
  std::cout << render_regress_markdown(report);
  auto write = [](const std::string& path, const std::string& text, const char* what) {
    std::ofstream f(path, std::ios::trunc);
    f << text;
    if (!f.flush()) throw SystemError(fmt::format("cannot write the {} report {}", what, path));
  };
  if (!a.junit.empty()) write(a.junit, render_regress_junit(report), "JUnit");
  if (!a.json.empty()) write(a.json, render_regress_json(report), "JSON");
  return report.failed() ? 1 : 0;
}

}  // namespace

void add_regress_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<RegressArgs>();
  CLI::App* c = app.add_subcommand(
      "regress", "compare a session's runs with a baseline's; exit 1 when something regressed");
  c->add_option("--case", a->cases, "only these cases (default: every case the session ran)");
  c->add_option("--baseline", a->baseline,
                "a session label or id, a date (YYYY-MM-DD: the last session before its end), "
                "best-of-N (per point, the best of the N sessions before), or previous (default)");
  c->add_option("--current", a->current,
                "the session to judge (default: the latest with runs of the cases)");
  c->add_option("--tolerance", a->tolerance,
                "a change within this of the baseline's median is no change (default 10%)");
  c->add_option("--min-repeats", a->min_repeats,
                "ok runs a side needs for a verdict (default 3; fewer: noisy)")
      ->check(CLI::Range(1, 1000000));
  c->add_option("--metric", a->metrics,
                "only these metrics (default: every metric, startup_s and wall_s)");
  c->add_option("--junit", a->junit, "also write JUnit XML here (a testcase per point × metric)");
  c->add_option("--json", a->json, "also write the comparison as JSON here");
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, a] { action = [&g, a] { return regress_command(g, *a); }; });
}

}  // namespace aerun::cli
