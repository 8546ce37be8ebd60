// `aerun report --html DIR`: the static nightly dashboard (docs/nightly.md): an index of the cases
// and sessions, and a page per case with its tables, verdicts, history figures and failures.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "aerun/judge/run_status.hpp"
#include "aerun/report/case_versions.hpp"
#include "aerun/report/history.hpp"
#include "aerun/report/html_report.hpp"
#include "aerun/report/session_pick.hpp"
#include "aerun/report/table_query.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/util/atomic_file.hpp"
#include "aerun/util/created_file.hpp"
#include "aerun/util/file_name.hpp"
#include "cli/app.hpp"
#include "cli/gnuplot_run.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

namespace fs = std::filesystem;

struct ReportArgs {
  std::string html;
  int sessions = 30;
  std::string baseline = "previous";
  std::string current;
  std::string tolerance = "10%";
  int min_repeats = 3;
};

// The metrics a case's history figures show: those with a direction, the case's own first.
std::vector<std::string> figure_metrics(const std::optional<CaseSpec>& spec,
                                        const std::vector<RunRecord>& runs) {
  std::vector<std::string> out;
  auto add = [&](const std::string& name, const std::string& unit, const std::string& better) {
    if (out.size() < 4 && metric_direction(name, unit, better) != Better::Unknown &&
        std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(name);
  };
  if (spec)
    for (const auto& m : spec->metrics)
      if (std::any_of(runs.begin(), runs.end(),
                      [&](const RunRecord& r) { return r.metric(m.name); }))
        add(m.name, m.unit, m.better);
  for (const auto& r : runs)
    for (const auto& m : r.metrics) add(m.name, m.unit, "");
  return out;
}

// The case's tables, from the current version's runs of the store (a table that cannot be built
// is a note on the page).
void add_tables(CaseReport& c, const Store& store, const CaseSpec& spec) {
  for (const TableSpec& t : spec.tables) {
    try {
      TableQuery::Options o;
      o.cases = {spec.name};
      o.cases.insert(o.cases.end(), t.runs_from.begin(), t.runs_from.end());
      const auto runs = TableQuery(&spec, std::move(o)).runs(store);
      c.tables.push_back(build_table(spec, t, runs, planned_runs(spec, t.runs_from, runs)));
    } catch (const InputError& e) {
      c.note += fmt::format("table {}: {} ", t.name, e.what());
    }
  }
}

// A figure per metric of the case's points over the recent sessions that ran it (the current
// session's runs are `cur`), drawn by gnuplot into dir/plots.
void add_history_figures(CaseReport& c, const Store& store, SessionRuns cur,
                         const std::vector<const SessionInfo*>& recent, long long current_id,
                         const std::optional<CaseSpec>& spec, const RegressOptions& opts,
                         const std::string& gnuplot, const fs::path& dir) {
  const std::string& name = c.name;
  const auto metrics = figure_metrics(spec, cur.runs);
  if (!metrics.empty() && gnuplot.empty()) {
    c.note += "gnuplot is not installed: no history figures.";
  } else if (!metrics.empty()) {
    std::vector<SessionRuns> sessions;
    std::vector<double> started;
    for (const SessionInfo* s : recent)
      if (s->id == current_id) {
        sessions.insert(sessions.begin(), std::move(cur));  // not used after
        started.insert(started.begin(), s->started_at);
      } else if (store.session_has_runs(s->id, name)) {
        sessions.insert(sessions.begin(), SessionRuns{s->label, store.session_runs(s->id, name)});
        started.insert(started.begin(), s->started_at);
      }
    for (const auto& m : metrics) {
      const History h =
          build_history(name, spec ? &*spec : nullptr, m, sessions, started, "", opts);
      const std::string base = file_name_part(name + "-" + m);
      draw_figure(gnuplot, (dir / "plots").string(), base, history_gnuplot_script(h, base));
      c.figures.push_back("plots/" + base + ".svg");
    }
  }
}

int report_command(const Globals& g, const ReportArgs& a) {
  Store store = open_existing_store(g.resolved_db());
  RegressOptions opts;
  opts.tolerance = parse_tolerance(a.tolerance);
  opts.min_repeats = a.min_repeats;
  SessionPick pick(store, g.resolved_db());
  const SessionInfo& current = pick.pick_current(a.current, {});
  pick.pick_baseline(a.baseline);
  const fs::path dir(a.html);
  make_own_directory((dir / "plots").string());  // never into a link put at plots/
  const std::string gnuplot = find_gnuplot();

  ReportData d;
  d.store = g.resolved_db();
  d.current = current.label;
  d.options = opts;
  d.generated_at = wall_now();
  // The last --sessions sessions, newest first, for the provenance table and the figures.
  std::vector<const SessionInfo*> recent;
  for (auto it = pick.sessions().rbegin();
       it != pick.sessions().rend() && static_cast<int>(recent.size()) < a.sessions; ++it)
    recent.push_back(&*it);
  for (const SessionInfo* s : recent) d.sessions.push_back(*s);

  // Each case's runs are read once per session shown (a big store, or a huge value a merged store
  // brought, is read as few times as can be).
  const std::vector<std::string> cases = store.session_case_names(current.id);
  std::vector<std::string> used;
  for (const auto& name : cases) {
    CaseReport c;
    c.name = name;
    c.page = "case-" + file_name_part(name) + ".html";
    SessionRuns cur{current.label, store.session_runs(current.id, name)};
    const std::optional<CaseSpec> spec = case_of(cur.runs);
    const auto bases = pick.baselines(name);
    for (const auto& b : bases)
      if (std::find(used.begin(), used.end(), b.label) == used.end()) used.push_back(b.label);
    c.verdicts = compare_case(name, spec ? &*spec : nullptr, bases, cur, opts);
    for (const auto& r : cur.runs)
      if (r.status != run_status::ok) c.failures.push_back(r);
    if (spec) {
      c.title = spec->title;
      c.paper = spec->paper;
      add_tables(c, store, *spec);
    } else {
      c.note = "Its case file no longer loads (or moved): no tables, units from the runs.";
    }
    // History figures over the recent sessions that ran the case.
    add_history_figures(c, store, std::move(cur), recent, current.id, spec, opts, gnuplot, dir);
    d.cases.push_back(std::move(c));
  }
  d.baseline = used.empty() ? "" : pick.baseline_heading(used);
  // Each page whole or not at all: a full disk leaves the previous night's site readable.
  for (const auto& c : d.cases) write_file_atomic((dir / c.page).string(), report_case_html(d, c));
  write_file_atomic((dir / "index.html").string(), report_index_html(d));
  std::cout << fmt::format("{}: {} case page{} for session {} against {}\n",
                           (dir / "index.html").string(), d.cases.size(),
                           d.cases.size() == 1 ? "" : "s", d.current,
                           d.baseline.empty() ? "no baseline" : d.baseline);
  return 0;
}

}  // namespace

void add_report_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<ReportArgs>();
  CLI::App* c = app.add_subcommand(
      "report", "a static HTML dashboard of the latest session (tables, verdicts, history)");
  c->add_option("--html", a->html, "the folder to write (index.html and a page per case)")
      ->required();
  c->add_option("--sessions", a->sessions, "sessions shown and drawn (default 30)")
      ->check(CLI::Range(1, 100000));
  c->add_option("--baseline", a->baseline, "as for aerun regress (default: previous)");
  c->add_option("--current", a->current, "the session reported (default: the latest with runs)");
  c->add_option("--tolerance", a->tolerance, "as for aerun regress (default 10%)");
  c->add_option("--min-repeats", a->min_repeats, "as for aerun regress (default 3)")
      ->check(CLI::Range(1, 1000000));
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, a] { action = [&g, a] { return report_command(g, *a); }; });
}

}  // namespace aerun::cli
