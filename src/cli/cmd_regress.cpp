// `aerun regress`: a session's runs against a baseline's, per case × point × metric; exit 1 when
// something regressed or newly fails (docs/nightly.md).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "aerun/case/case_loader.hpp"
#include "aerun/case/system_catalog.hpp"
#include "aerun/report/regress.hpp"
#include "aerun/report/session_pick.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"
#include "cli/report_file.hpp"

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

void add_rows(RegressReport& report, std::vector<RegressRow> rows) {
  report.rows.insert(report.rows.end(), std::make_move_iterator(rows.begin()),
                     std::make_move_iterator(rows.end()));
}

// One system against another: `--baseline system=polaris` compares the session's runs on other
// systems with the case's runs on Polaris in the last session, up to this one, that ran it there
// (this one, or a merged store's `night1` beside `night1@beta`).
void compare_with_a_system(Store& store, const SessionPick& pick, const SessionInfo& current,
                           const std::vector<std::string>& cases, const std::string& name,
                           RegressReport& report) {
  const std::string stored = stored_system_name(name);
  size_t at = 0;
  while (at < pick.sessions().size() && pick.sessions()[at].id != current.id) ++at;
  std::vector<std::string> used;
  for (const auto& case_name : cases) {
    const SessionRuns cur{current.label, store.session_runs(current.id, case_name)};
    SessionRuns base;
    for (size_t i = at + 1; i-- > 0 && base.runs.empty();) {
      const SessionInfo& s = pick.sessions()[i];
      for (RunRecord& r : store.session_runs(s.id, case_name))
        if (r.system == stored) base.runs.push_back(std::move(r));
      base.label = s.label;
    }
    if (base.runs.empty()) {
      std::cerr << fmt::format(
          "aerun: note: case '{}' has no run on system {} up to session {}: not compared\n",
          case_name, name, current.label);
      continue;
    }
    if (std::find(used.begin(), used.end(), base.label) == used.end()) used.push_back(base.label);
    const std::optional<CaseSpec> spec = case_of(cur.runs);
    add_rows(report, compare_with_system(case_name, spec ? &*spec : nullptr, base, stored, cur,
                                         report.options));
  }
  if (used.empty())
    throw InputError(SourceLoc{}, "--baseline",
                     fmt::format("no case of session {} has a run on system {} in it or "
                                 "before it (aerun runs --system {})",
                                 current.label, name, name));
  std::string sessions;
  for (const auto& u : used) sessions += (sessions.empty() ? "" : ", ") + u;
  report.baseline = fmt::format("system {} ({})", name, sessions);
}

// The session's runs against the baseline sessions' (`previous`, a label, `best`, ...).
void compare_with_sessions(Store& store, SessionPick& pick, const SessionInfo& current,
                           const std::vector<std::string>& cases, const std::string& baseline,
                           RegressReport& report) {
  pick.pick_baseline(baseline);
  std::vector<std::string> used;  // the baseline sessions compared with, for the heading
  for (const auto& case_name : cases) {
    SessionRuns cur{current.label, store.session_runs(current.id, case_name)};
    const std::vector<SessionRuns> bases = pick.baselines(case_name);
    for (const auto& b : bases)
      if (std::find(used.begin(), used.end(), b.label) == used.end()) used.push_back(b.label);
    const std::optional<CaseSpec> spec = case_of(cur.runs);
    if (bases.empty())
      std::cerr << fmt::format(
          "aerun: note: case '{}' has no baseline session ({}): its points are new\n", case_name,
          baseline);
    add_rows(report, compare_case(case_name, spec ? &*spec : nullptr, bases, cur, report.options));
  }
  report.baseline = pick.baseline_heading(used);
}

int regress_command(const Globals& g, const RegressArgs& a) {
  if (!a.junit.empty()) check_report_file(a.junit, "--junit", g.resolved_db(), g.logs_dir());
  if (!a.json.empty()) check_report_file(a.json, "--json", g.resolved_db(), g.logs_dir());
  Store store = open_existing_store(g.resolved_db());
  RegressOptions opts;
  opts.tolerance = parse_tolerance(a.tolerance);
  opts.min_repeats = a.min_repeats;
  opts.metrics = a.metrics;
  for (const auto& c : a.cases) require_case(store, c, g.resolved_db());
  SessionPick pick(store, g.resolved_db());
  const SessionInfo& current = pick.pick_current(a.current, a.cases);
  std::vector<std::string> cases = a.cases;
  if (cases.empty())
    for (const auto& r : store.session_runs(current.id, ""))
      if (std::find(cases.begin(), cases.end(), r.case_name) == cases.end())
        cases.push_back(r.case_name);
  RegressReport report;
  report.current = current.label;
  report.options = opts;
  if (a.baseline.rfind("system=", 0) == 0)
    compare_with_a_system(store, pick, current, cases, a.baseline.substr(7), report);
  else
    compare_with_sessions(store, pick, current, cases, a.baseline, report);
  std::cout << render_regress_markdown(report);
  if (!a.junit.empty())
    write_report_file(a.junit, render_regress_junit(report), "--junit", g.resolved_db(),
                      g.logs_dir());
  if (!a.json.empty())
    write_report_file(a.json, render_regress_json(report), "--json", g.resolved_db(), g.logs_dir());
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
                "best-of-N (per point, the best of the N sessions before), previous (default), "
                "or system=NAME (each other system's runs of the session against NAME's)");
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
