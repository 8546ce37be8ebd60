// `aerun table NAME`: a paper's table regenerated from the store, beside the paper's numbers.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "aerun/record/run_times.hpp"
#include "aerun/report/case_versions.hpp"
#include "aerun/report/table.hpp"
#include "aerun/report/table_finder.hpp"
#include "aerun/report/table_query.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"
#include "cli/progress_line.hpp"
#include "cli/run_selection.hpp"

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
  int threads = 0;  // threads reading the store (0: one per CPU for a large case)
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

void note_older(size_t older) {
  if (older > 0)
    std::cerr << "aerun: note: " << older
              << " run(s) of earlier versions of the case left out (--all-versions includes "
                 "them)\n";
}

// What a table reads, from light queries: its cases (its own, then its runs_from), their runs'
// parameter and metric names (when a column, a formula or a selection needs them), the case
// files they recorded (one stub each, for planned_runs) and how many runs each case has.
struct TableSources {
  std::vector<std::string> cases, params, metrics;
  std::vector<RunRecord> case_files;
  std::map<std::string, long long> runs;
  long long stored = 0;
};

TableSources table_sources(const TableArgs& a, const CaseSpec& spec, const TableSpec& table,
                           const Store& store) {
  TableSources src;
  auto add = [](std::vector<std::string>& v, const std::string& n) {
    if (std::find(v.begin(), v.end(), n) == v.end()) v.push_back(n);
  };
  add(src.cases, spec.name);
  for (const auto& other : table.runs_from) add(src.cases, other);
  // The runs' parameter and metric names decide what a column shows only when its source is
  // none of the case's own (and are the variables of derive formulas and --where): read them
  // only then.
  bool need_names = !table.derive.empty() || !a.select.empty() || !table.pivot.empty();
  for (const auto& col : table.columns) {
    auto named = [&](const auto& x) { return x.name == col.source; };
    const bool declared = std::any_of(spec.metrics.begin(), spec.metrics.end(), named) ||
                          std::any_of(spec.params.begin(), spec.params.end(), named) ||
                          find_run_time(col.source) != nullptr;
    need_names = need_names || !declared;
  }
  for (const auto& name : src.cases) {
    RunFilter f;
    f.case_name = name;
    const Store::Outline o = store.outline(f, need_names);
    src.stored += o.runs;
    src.runs[name] = o.runs;
    for (const auto& n : o.params) add(src.params, n);
    for (const auto& n : o.metrics) add(src.metrics, n);
    for (auto& stub : o.file_stubs(name)) src.case_files.push_back(std::move(stub));
  }
  return src;
}

// The columns and metrics of the runs the table shows: of the runs' own columns, besides their
// identity and status, the run times its columns show; of their metrics, those its columns show
// (every one of both when formulas may name them).
void table_reads(const TableSpec& table, TableQuery::Options& o) {
  for (const RunTime& t : kRunTimes)
    if (!table.derive.empty() ||
        std::any_of(table.columns.begin(), table.columns.end(),
                    [&](const ColumnSpec& col) { return col.source == t.name; }))
      o.columns.emplace_back(t.column);
  if (table.derive.empty()) {
    o.metrics.emplace();
    for (const auto& col : table.columns)
      if (std::find(o.metrics->begin(), o.metrics->end(), col.source) == o.metrics->end())
        o.metrics->push_back(col.source);
  }
}

// The table from the store, streamed (memory holds what the cells need, not the runs): every
// run as it stands, or one session's (--session), of the current version (unless
// --all-versions), selected.
Table table_of(const Globals& g, const TableArgs& a, const CaseSpec& spec, const TableSpec& table,
               Store& store, ProgressLine& progress) {
  const TableSources src = table_sources(a, spec, table, store);
  if (src.stored == 0) require_case(store, spec.name, g.resolved_db());
  std::vector<std::string> known = planned_param_names(spec);
  for (const auto& n : src.params)
    if (std::find(known.begin(), known.end(), n) == known.end()) known.push_back(n);
  TableQuery::Options o;
  o.cases = src.cases;
  o.all_versions = a.all_versions;
  SelectionArgs select = a.select;
  if (selects_by_system(select, "")) o.systems = take_system_selection(select, known, "");
  o.make_selection = table_selection(select, known);
  o.db_path = g.resolved_db();
  o.threads = a.threads;
  table_reads(table, o);
  std::string session_label;
  if (!a.session.empty()) {
    const auto s = store.find_session(a.session);
    if (!s)
      throw InputError(SourceLoc{}, "--session",
                       "no session '" + a.session + "' in " + g.resolved_db());
    o.session = s->id;
    session_label = s->label;
  }
  auto make_builder = [&] {
    return std::make_unique<TableBuilder>(spec, table, src.params, src.metrics);
  };
  TableQuery query(&spec, std::move(o));
  const std::unique_ptr<TableBuilder> builder = make_builder();
  query.stream(store, *builder, src.runs, make_builder, [&](long long read) {
    if (progress.enabled())
      progress.show(fmt::format("[aerun] table {}: {} of {} runs read", a.name, read, src.stored));
  });
  if (!a.session.empty() && query.runs_read() == 0)
    throw InputError(SourceLoc{}, "--session",
                     "session '" + session_label + "' has no run of case '" + spec.name + "'");
  note_older(query.older());
  std::vector<PlannedRuns> plans = planned_runs(spec, table.runs_from, src.case_files);
  if (!select.empty()) keep_selected(plans, select, known);
  progress.show(
      fmt::format("[aerun] table {}: {} runs read, building the rows…", a.name, query.runs_read()),
      true);
  return builder->finish(plans);
}

void print_table(const Table& t, const std::string& format) {
  if (format == "csv")
    std::cout << render_csv(t);
  else if (format == "json")
    std::cout << render_json(t);
  else if (format == "latex")
    std::cout << render_latex(t);
  else if (format == "html")
    std::cout << render_html(t);
  else
    std::cout << render_markdown(t);
  std::cout.flush();
}

int table_command(const Globals& g, const TableArgs& a) {
  const std::string where = cases_location(a);
  if (!std::filesystem::exists(where))
    throw InputError(SourceLoc{}, "--cases",
                     "no case files at " + where + " (pass --cases DIR|FILE)");
  auto found = find_table(a.name, where);
  const CaseSpec& spec = found.first;
  const TableSpec& table = found.second;
  Store store = open_existing_store(g.resolved_db());
  // Over a large store the reading and the building take a while: say which is under way.
  ProgressLine progress(std::cerr);
  progress.show("[aerun] table " + a.name + ": reading the runs of case " + spec.name + "…", true);
  const Table t = table_of(g, a, spec, table, store, progress);
  progress.clear();
  print_table(t, a.format);
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
  c->add_option("-j,--threads", args->threads,
                "threads reading the store at once (default: one per CPU, up to 8, for a case of "
                "50,000 runs or more; 1 for fewer)")
      ->check(CLI::Range(1, 64));
  c->add_option("--db", g.db, "results store");
  c->add_flag("--csv-safe", g.csv_safe,
              "csv: a cell starting with = + - @ or a tab that is not a number gets a leading ' "
              "(no spreadsheet formula runs)");
  c->callback([&action, &g, args] { action = [&g, args] { return table_command(g, *args); }; });
}

}  // namespace aerun::cli
