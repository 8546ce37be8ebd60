// `aerun table NAME`: a paper's table regenerated from the store, beside the paper's numbers.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "aerun/case_versions.hpp"
#include "aerun/table.hpp"
#include "aerun/table_finder.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"
#include "cli/progress_line.hpp"
#include "cli/run_selection.hpp"
#include "cli/table_runs.hpp"

namespace aerun::cli {

namespace {

struct TableArgs {
  std::string name;
  std::string cases;
  std::string format = "md";
  bool all_versions = false;
  bool check = false;
  std::string session;  // one session's runs (label or id)
  SelectionArgs select;
};

// --check: every cell with a paper value must be measured and within the tolerance. Returns the
// exit code (0, or 1 naming the cells that are not) after the table was printed.
int check_against_paper(const Table& t) {
  int compared = 0;
  std::vector<std::string> bad;
  for (const auto& row : t.rows)
    for (size_t j = 0; j < row.cells.size() && j < t.columns.size(); ++j) {
      const TableCell& c = row.cells[j];
      if (!c.paper) continue;
      ++compared;
      if (c.pass && *c.pass) continue;
      std::string where;
      for (size_t k = 0; k < row.key.size() && k < t.row_params.size(); ++k)
        where += (where.empty() ? "" : " ") + t.row_params[k] + "=" + row.key[k];
      bad.push_back(
          c.ratio ? fmt::format("{} {}: {} vs paper {} (ratio {:.3f})", where, t.columns[j], c.text,
                                *c.paper, *c.ratio)
                  : fmt::format("{} {}: {} (paper {})", where, t.columns[j], c.text, *c.paper));
    }
  if (bad.empty()) {
    std::cerr << fmt::format("aerun: check: {} of {} compared cells within ±{:g}% of the paper\n",
                             compared, compared, t.tolerance * 100);
    return 0;
  }
  std::cerr << fmt::format(
      "aerun: check failed: {} of {} compared cells not within ±{:g}% of the paper:\n", bad.size(),
      compared, t.tolerance * 100);
  for (const auto& b : bad) std::cerr << "  " << b << "\n";
  return 1;
}

std::string cases_location(const TableArgs& a) {
  if (!a.cases.empty()) return a.cases;
  if (const char* e = std::getenv("AERUN_CASES"); e && *e) return e;
  return "cases";
}

int table_command(const Globals& g, const TableArgs& a) {
  const std::string where = cases_location(a);
  if (!std::filesystem::exists(where))
    throw InputError(SourceLoc{}, "--cases",
                     "no case files at " + where + " (pass --cases DIR|FILE)");
  auto [spec, table] = find_table(a.name, where);
  Store store = open_existing_store(g.resolved_db());
  // Over a large store the reading and the building take a while: say which is under way.
  ProgressLine progress(std::cerr);
  progress.show("[aerun] table " + a.name + ": reading the runs of case " + spec.name + "…", true);
  std::vector<RunRecord> runs;
  if (!a.session.empty()) {
    const auto s = store.find_session(a.session);
    if (!s)
      throw InputError(SourceLoc{}, "--session",
                       "no session '" + a.session + "' in " + g.resolved_db());
    runs = store.session_runs(s->id, spec.name);
    for (const auto& other : table.runs_from)
      if (other != spec.name) {
        auto more = store.session_runs(s->id, other);
        runs.insert(runs.end(), more.begin(), more.end());
      }
    if (runs.empty())
      throw InputError(SourceLoc{}, "--session",
                       "session '" + s->label + "' has no run of case '" + spec.name + "'");
  } else {
    runs = table_runs(store, spec, table.runs_from);
  }
  if (runs.empty()) require_case(store, spec.name, g.resolved_db());
  size_t older = 0;
  if (!a.all_versions) runs = current_runs(std::move(runs), spec, &older);
  if (older > 0)
    std::cerr << "aerun: note: " << older
              << " run(s) of earlier versions of the case left out (--all-versions includes "
                 "them)\n";
  std::vector<PlannedRuns> plans = planned_runs(spec, table.runs_from, runs);
  if (!a.select.empty()) {
    std::vector<std::string> known = planned_param_names(spec);
    keep_selected(runs, a.select, known);
    for (const auto& n : param_names_of(runs))
      if (std::find(known.begin(), known.end(), n) == known.end()) known.push_back(n);
    keep_selected(plans, a.select, known);
  }
  progress.show(fmt::format("[aerun] table {}: building from {} runs…", a.name, runs.size()), true);
  const Table t = build_table(spec, table, runs, plans);
  progress.clear();
  if (a.format == "csv")
    std::cout << render_csv(t);
  else if (a.format == "json")
    std::cout << render_json(t);
  else if (a.format == "latex")
    std::cout << render_latex(t);
  else if (a.format == "html")
    std::cout << render_html(t);
  else
    std::cout << render_markdown(t);
  std::cout.flush();
  return a.check ? check_against_paper(t) : 0;
}

}  // namespace

void add_table_command(CLI::App& app, Globals& g, Action& action) {
  auto args = std::make_shared<TableArgs>();
  CLI::App* c = app.add_subcommand("table", "print a paper's table from the store");
  c->add_option("name", args->name, "table name (as in a case file's tables:)")->required();
  c->add_option("--cases", args->cases,
                "case file or folder to find the table in (default: cases/)");
  c->add_option("--format", args->format, "md | csv | json | latex | html")
      ->check(CLI::IsMember({"md", "csv", "json", "latex", "html"}));
  c->add_flag("--all-versions", args->all_versions,
              "include runs of earlier versions of the case (other command, fixed parameters)");
  c->add_option("--session", args->session,
                "the table as one session left it (a label or id; default: every run's latest "
                "attempt)");
  c->add_flag("--check", args->check,
              "exit 1 when a cell with a paper value is not measured or not within the "
              "table's tolerance");
  add_selection_options(c, args->select);
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, args] { action = [&g, args] { return table_command(g, *args); }; });
}

}  // namespace aerun::cli
