// `aerun table NAME`: a paper's table regenerated from the store, beside the paper's numbers.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "aerun/case_versions.hpp"
#include "aerun/table.hpp"
#include "aerun/table_finder.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"
#include "cli/table_runs.hpp"

namespace aerun::cli {

namespace {

struct TableArgs {
  std::string name;
  std::string cases;
  std::string format = "md";
  bool all_versions = false;
};

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
  std::vector<RunRecord> runs = table_runs(store, spec, table.runs_from);
  if (runs.empty()) require_case(store, spec.name, g.resolved_db());
  size_t older = 0;
  if (!a.all_versions) runs = current_runs(std::move(runs), spec, &older);
  if (older > 0)
    std::cerr << "aerun: note: " << older
              << " run(s) of earlier versions of the case left out (--all-versions includes "
                 "them)\n";
  const Table t = build_table(spec, table, runs, planned_runs(spec, table.runs_from, runs));
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
  return 0;
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
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, args] { action = [&g, args] { return table_command(g, *args); }; });
}

}  // namespace aerun::cli
