// `aerun history METRIC --case X`: a metric of a case's points over the sessions that ran it, as a
// table and (with --plot) a gnuplot figure; each session judged as `aerun regress` judges.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "aerun/case/case_loader.hpp"
#include "aerun/report/history.hpp"
#include "aerun/report/session_pick.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/util/file_name.hpp"
#include "cli/app.hpp"
#include "cli/gnuplot_run.hpp"
#include "cli/open_store.hpp"
#include "cli/run_selection.hpp"

namespace aerun::cli {

namespace {

namespace fs = std::filesystem;

struct HistoryArgs {
  std::string metric;
  std::string case_name;
  SelectionArgs select;
  int sessions = 30;
  std::string baseline;
  std::string format = "md";
  bool plot = false;
  std::string out;
  std::string tolerance = "10%";
  int min_repeats = 3;
};

int history_command(const Globals& g, const HistoryArgs& a) {
  Store store = open_existing_store(g.resolved_db());
  require_case(store, a.case_name, g.resolved_db());
  std::vector<SessionRuns> sessions;
  std::vector<double> started;
  const auto all = store.sessions();
  for (auto it = all.rbegin(); it != all.rend() && static_cast<int>(sessions.size()) < a.sessions;
       ++it) {
    if (!store.session_has_runs(it->id, a.case_name)) continue;
    sessions.insert(sessions.begin(),
                    SessionRuns{it->label, store.session_runs(it->id, a.case_name)});
    started.insert(started.begin(), it->started_at);
  }
  // --only / --where as `aerun runs` reads them (an unknown key or variable is an error).
  if (!a.select.empty()) {
    std::vector<RunRecord> all_runs;
    for (const auto& s : sessions) all_runs.insert(all_runs.end(), s.runs.begin(), s.runs.end());
    const RunSelector selector(a.select.only, param_names_of(all_runs), a.select.where);
    for (auto& s : sessions)
      std::erase_if(s.runs,
                    [&](const RunRecord& r) { return !selector.keeps(r.params, r.repeat_index); });
  }
  if (!a.baseline.empty() &&
      std::none_of(sessions.begin(), sessions.end(),
                   [&](const SessionRuns& s) { return s.label == a.baseline; }))
    throw InputError(SourceLoc{}, "--baseline",
                     "'" + a.baseline +
                         "' is not among the sessions shown (a label of one of the "
                         "last --sessions that ran the case)");
  bool has_metric = false;
  for (const auto& s : sessions)
    for (const auto& r : s.runs)
      has_metric = has_metric || r.metric(a.metric) || (a.metric == "startup_s" && r.startup_s) ||
                   (a.metric == "wall_s" && r.wall_s);
  if (!has_metric) {
    std::vector<std::string> names;
    for (const auto& s : sessions)
      for (const auto& r : s.runs)
        for (const auto& m : r.metrics)
          if (std::find(names.begin(), names.end(), m.name) == names.end()) names.push_back(m.name);
    const std::string near = nearest_key(a.metric, names);
    throw InputError(
        SourceLoc{}, "metric",
        fmt::format("no run of case '{}' has a metric '{}'{}; metrics: {}", a.case_name, a.metric,
                    near.empty() ? "" : " (did you mean '" + near + "'?)",
                    names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
  }
  std::optional<CaseSpec> spec;
  for (const auto& s : sessions)
    if (!spec) spec = case_of(s.runs);
  RegressOptions opts;
  opts.min_repeats = a.min_repeats;
  opts.tolerance = parse_tolerance(a.tolerance);
  const History h = build_history(a.case_name, spec ? &*spec : nullptr, a.metric,
                                  std::move(sessions), started, a.baseline, opts);
  std::cout << (a.format == "csv" ? render_history_csv(h) : render_history_markdown(h));
  if (a.plot) {
    const std::string gnuplot = find_gnuplot();
    if (gnuplot.empty())
      throw SystemError(
          "gnuplot is not installed (not found in PATH): apt-get install gnuplot-nox");
    const fs::path out =
        a.out.empty() ? fs::path(g.resolved_db()).parent_path() / "plots" : fs::path(a.out);
    fs::create_directories(out);
    const std::string base = file_name_part("history-" + a.case_name + "-" + a.metric);
    draw_figure(gnuplot, out.string(), base, history_gnuplot_script(h, base));
    std::cerr << fmt::format("{}: {} {}\n", base, (out / (base + ".svg")).string(),
                             (out / (base + ".png")).string());
  }
  return 0;
}

}  // namespace

void add_history_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<HistoryArgs>();
  CLI::App* c =
      app.add_subcommand("history", "a metric of a case's points over its sessions (table, plot)");
  c->add_option("metric", a->metric, "a metric (or startup_s, wall_s)")->required();
  c->add_option("--case", a->case_name, "the case")->required();
  add_selection_options(c, a->select);
  c->add_option("--sessions", a->sessions, "the last N sessions that ran the case (default 30)")
      ->check(CLI::Range(1, 100000));
  c->add_option("--baseline", a->baseline,
                "judge every session against this one (default: each against the one before)");
  c->add_option("--format", a->format, "md | csv")->check(CLI::IsMember({"md", "csv"}));
  c->add_flag("--plot", a->plot, "also draw it (gnuplot: SVG and PNG)");
  c->add_option("--out", a->out, "where the plot goes (default: plots/ beside the store)");
  c->add_option("--tolerance", a->tolerance, "as for aerun regress (default 10%)");
  c->add_option("--min-repeats", a->min_repeats, "as for aerun regress (default 3)")
      ->check(CLI::Range(1, 1000000));
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->add_flag("--csv-safe", g.csv_safe,
              "csv: a cell starting with = + - @ or a tab that is not a number gets a leading ' "
              "(no spreadsheet formula runs)");
  c->callback([&action, &g, a] { action = [&g, a] { return history_command(g, *a); }; });
}

}  // namespace aerun::cli
