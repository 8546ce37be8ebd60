// `aerun runs`: the stored runs, one line each, as Markdown, CSV or JSON.
#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "aerun/report/case_versions.hpp"
#include "aerun/report/run_listing.hpp"
#include "aerun/util/error.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"
#include "cli/run_selection.hpp"

namespace aerun::cli {

namespace {

struct RunsArgs {
  std::string case_name;
  std::string status;
  std::string format = "md";
  bool all_versions = false;
  std::string session;
  SelectionArgs select;
  std::string system;                // --system
  std::vector<std::string> columns;  // --columns
  bool all_columns = false;
};

// Output in chunks: the listing of a million runs is written as it is read.
class ChunkedOut {
 public:
  ~ChunkedOut() { flush(); }
  std::string& text() { return buf_; }
  void maybe_flush() {
    if (buf_.size() >= (1 << 16)) flush();
  }
  void flush() {
    std::cout << buf_;
    buf_.clear();
  }

 private:
  std::string buf_;
};

int runs_command(const Globals& g, const RunsArgs& a) {
  Store store = open_existing_store(g.resolved_db());
  RunFilter f;
  f.case_name = a.case_name;
  f.status = a.status;
  f.with_env = false;
  f.with_series = false;
  if (!a.session.empty()) {
    const auto s = store.find_session(a.session);
    if (!s)
      throw InputError(SourceLoc{}, "--session",
                       "no session '" + a.session + "' in " + g.resolved_db());
    f.session_id = s->id;
  }
  // The names first (light queries), then the runs streamed one at a time: memory stays flat
  // however many runs the store holds.
  SelectionArgs select = a.select;
  if (selects_by_system(select, a.system))
    f.systems = take_system_selection(select, store.outline(f).params, a.system);
  const Store::Outline outline = store.outline(f);
  if (outline.runs == 0 && !a.case_name.empty()) require_case(store, a.case_name, g.resolved_db());
  std::optional<RunSelector> selector;
  if (!select.empty()) selector.emplace(select.only, outline.params, select.where);
  RunListing listing(outline, {a.format, a.columns, a.all_columns, a.all_versions});
  f.columns = RunListing::store_columns();
  f.with_metric_details = false;  // a listing shows their values
  // Runs of earlier versions of their case are left out, or (--all-versions) kept and marked.
  CurrentVersions versions;
  ChunkedOut out;
  out.text() += listing.header();
  size_t older = 0;
  store.for_each(f, [&](RunRecord& r) {
    if (selector && !selector->keeps(r.params, r.repeat_index)) return true;
    const bool now = versions.holds(r);
    if (!now) ++older;
    if (!now && !a.all_versions) return true;
    listing.row(r, now, out.text());
    out.maybe_flush();
    return true;
  });
  out.text() += listing.footer();
  out.flush();
  if (older > 0 && !a.all_versions)
    std::cerr << "aerun: note: " << older
              << " run(s) of earlier versions of their case left out (--all-versions includes "
                 "them)\n";
  return 0;
}

}  // namespace

void add_runs_command(CLI::App& app, Globals& g, Action& action) {
  auto args = std::make_shared<RunsArgs>();
  CLI::App* c = app.add_subcommand("runs", "list stored runs");
  c->add_option("--case", args->case_name, "only this case");
  c->add_option("--status", args->status, "only runs with this status (ok, failed, oom, ...)");
  c->add_option("--format", args->format, "md | csv | json")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  c->add_option("--session", args->session,
                "only runs whose latest attempt is of this session (label or id)");
  c->add_flag("--all-versions", args->all_versions,
              "include runs of earlier versions of their case, marked (old)");
  c->add_option("--columns", args->columns,
                "NAME,...: these columns, in this order (md and csv; see --all-columns)")
      ->delimiter(',');
  c->add_flag("--all-columns", args->all_columns,
              "every column (md); the default shows key, case, rep, status, parameters, the "
              "headline metrics, startup_s, wall_s");
  add_selection_options(c, args->select);
  c->add_option("--system", args->system,
                "NAME[,NAME...]: only runs on these systems (local: on none named; the same as "
                "--only system=NAME)");
  c->add_option("--db", g.db, "results store");
  c->add_flag("--csv-safe", g.csv_safe,
              "csv: a cell starting with = + - @ or a tab that is not a number gets a leading ' "
              "(no spreadsheet formula runs)");
  c->callback([&action, &g, args] { action = [&g, args] { return runs_command(g, *args); }; });
}

}  // namespace aerun::cli
