#include "cli/app.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "aerun/util/error.hpp"
#include "aerun/util/terminal_text.hpp"
#include "aerun/util/text_format.hpp"
#include "cli/stored_systems.hpp"

namespace aerun::cli {

std::string Globals::resolved_db() const {
  if (!db.empty()) return db;
  if (const char* e = std::getenv("AERUN_DB"); e && *e) return e;
  return "results/aerun.db";
}

// A store owns its logs (issue 40): the default store, `aerun.db`, keeps them in `logs/` beside
// it; any other store in `logs-<its file name>/`, so that two stores in one folder (`--db a.db`,
// `--db b.db`) never write, compress or remove each other's files.
std::string Globals::logs_dir() const {
  const std::filesystem::path db(resolved_db());
  auto parent = db.parent_path();
  if (parent.empty()) parent = ".";
  const std::string name = db.filename().string();
  return (parent / (name == "aerun.db" || name.empty() ? std::string("logs") : "logs-" + name))
      .string();
}

namespace {

// Every subcommand, each from its cmd_<name>.cpp.
void add_commands(CLI::App& app, Globals& g, Action& action) {
  add_case_command(app, g, action);
  add_runs_command(app, g, action);
  add_show_command(app, g, action);
  add_table_command(app, g, action);
  add_plot_command(app, g, action);
  add_env_command(app, g, action);
  add_collect_command(app, g, action);
  add_cancel_command(app, g, action);
  add_stamp_output_command(app, g, action);
  add_ingest_command(app, g, action);
  add_forget_command(app, g, action);
  add_regress_command(app, g, action);
  add_history_command(app, g, action);
  add_report_command(app, g, action);
  add_prune_command(app, g, action);
  add_merge_command(app, g, action);
  add_watch_command(app, g, action);
  add_diff_command(app, g, action);
  add_init_command(app, g, action);
  add_schema_command(app, g, action);
  add_systems_command(app, g, action);
  add_complete_command(app, g, action);
}

// A command's text output is read by a person, piped through `less -R` or `cat` too: filtered
// like a terminal's (issue 40: `aerun show | cat` printed a parameter's escape sequences). A data
// format (--format csv, json, sh, launch, latex, html) keeps its bytes: they are values.
bool prints_data(const CLI::App& app) {
  bool data_format = false;
  for (const CLI::App* sub : app.get_subcommands()) {
    if (const CLI::Option* o = sub->get_option_no_throw("--format"); o && o->count() > 0) {
      const std::string f = o->as<std::string>();
      data_format =
          f == "csv" || f == "json" || f == "sh" || f == "launch" || f == "latex" || f == "html";
    }
    // `aerun case --dry-run` prints a shell script, to be piped into bash: its values exact.
    if (const CLI::Option* o = sub->get_option_no_throw("--dry-run"); o && o->count() > 0)
      data_format = data_format || sub->get_name() == "case";
  }
  return data_format;
}

// Runs the chosen command; an error becomes its message and exit code (README, "Exit codes"):
// 2 bad input, 4 the environment failed, 3 a bug.
int run_action(const Action& action, const Globals& g) {
  try {
    set_csv_formula_guard(g.csv_safe);
    name_stored_hosts_by("");  // `aerun case --systems` names its own folders
    return action ? action() : 2;
  } catch (const InputError& e) {
    std::cerr << "aerun: error: " << e.what() << "\n";
    return 2;
  } catch (const SystemError& e) {  // the environment: store locked or unwritable, disk, tools
    std::cerr << "aerun: error: " << e.what() << "\n";
    return 4;
  } catch (const std::filesystem::filesystem_error& e) {
    // A path the user gave that cannot be used (a link loop, a file where a folder must be): said
    // as such, not as aerun's own fault. A path that does not lead anywhere is bad input.
    const int code = e.code().value();
    std::string where = e.path1().string();
    if (!e.path2().empty()) where += " -> " + e.path2().string();
    std::cerr << "aerun: error: cannot use " << (where.empty() ? std::string("a path") : where)
              << ": " << e.code().message() << "\n";
    return code == ELOOP || code == ENOTDIR || code == ENOENT || code == EISDIR ||
                   code == ENAMETOOLONG
               ? 2
               : 4;
  } catch (const std::exception& e) {
    std::cerr << "aerun: internal error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that goes away (`aerun case ... 2>&1 | head -1`) does not kill aerun in the middle of
  // its runs (they were left stale, their logs empty: issue 40): a write to it fails instead, and
  // the runs go on and are stored. Every child gets the default action back (posix_spawn's
  // SETSIGDEF in child_process.cpp and captured_command.cpp).
  ::signal(SIGPIPE, SIG_IGN);
  // No string from a log, a file name or a store reaches a terminal raw (issue 28).
  TerminalGuard terminal;
  CLI::App app{"aerun: re-run a paper's experiments and get its tables back"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(AERUN_VERSION));
  Globals g;
  app.add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  Action action;
  add_commands(app, g, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  // AERUN_CHECK_ARGS=1: the command line is only checked (tests/integration/docs_commands_test.cpp
  // checks every command the docs show this way).
  if (const char* check = std::getenv("AERUN_CHECK_ARGS"); check && std::string(check) == "1")
    return action ? 0 : 2;
  if (!prints_data(app)) terminal.text_stdout();
  return run_action(action, g);
}

}  // namespace aerun::cli
