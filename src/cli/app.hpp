// The aerun command line: one add_*_command per subcommand (cli/cmd_*.cpp).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace aerun::cli {

// Runs aerun with these arguments; returns the process exit code
// (0 all runs ok, 1 some runs failed, 2 bad input or usage, 130/143 interrupted).
int main(int argc, char** argv);

// Options every subcommand shares.
struct Globals {
  std::string db;         // --db, else $AERUN_DB, else results/aerun.db
  bool csv_safe = false;  // --csv-safe: CSV cells a spreadsheet would run as formulas get a '
  std::string resolved_db() const;
  // Logs live beside the store: <dir of db>/logs for aerun.db, <dir of db>/logs-<file> else.
  std::string logs_dir() const;
};

// Each subcommand registers itself and sets *action to its body.
using Action = std::function<int()>;
void add_case_command(CLI::App& app, Globals& g, Action& action);
void add_runs_command(CLI::App& app, Globals& g, Action& action);
void add_show_command(CLI::App& app, Globals& g, Action& action);
void add_table_command(CLI::App& app, Globals& g, Action& action);
void add_plot_command(CLI::App& app, Globals& g, Action& action);
void add_env_command(CLI::App& app, Globals& g, Action& action);
// Batch jobs submitted with --no-wait, and the job scripts' output stamper.
void add_collect_command(CLI::App& app, Globals& g, Action& action);
void add_cancel_command(CLI::App& app, Globals& g, Action& action);
void add_stamp_output_command(CLI::App& app, Globals& g, Action& action);
void add_ingest_command(CLI::App& app, Globals& g, Action& action);
void add_forget_command(CLI::App& app, Globals& g, Action& action);
void add_regress_command(CLI::App& app, Globals& g, Action& action);
void add_history_command(CLI::App& app, Globals& g, Action& action);
void add_report_command(CLI::App& app, Globals& g, Action& action);
void add_prune_command(CLI::App& app, Globals& g, Action& action);
void add_merge_command(CLI::App& app, Globals& g, Action& action);
void add_watch_command(CLI::App& app, Globals& g, Action& action);
void add_diff_command(CLI::App& app, Globals& g, Action& action);
void add_init_command(CLI::App& app, Globals& g, Action& action);
void add_schema_command(CLI::App& app, Globals& g, Action& action);
// The system profiles (issue 41).
void add_systems_command(CLI::App& app, Globals& g, Action& action);
// Hidden: the words bash completion offers (scripts/aerun-completion.bash).
void add_complete_command(CLI::App& app, Globals& g, Action& action);

}  // namespace aerun::cli
