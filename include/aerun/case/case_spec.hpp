// The parsed form of a case file: one figure or table of a paper, as runs to make and tables to
// show.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aerun/case/aggregation.hpp"
#include "aerun/case/container_spec.hpp"
#include "aerun/case/launcher_spec.hpp"
#include "aerun/case/poll_interval.hpp"
#include "aerun/case/resources_spec.hpp"
#include "aerun/logread/log_patterns.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/scheduler_kind.hpp"
#include "aerun/util/value.hpp"

namespace aerun {

// A reference value of the paper for one row (matched by parameters) and one column.
struct Reference {
  ParamList match;  // parameter values selecting the row
  std::string column;
  double value = 0;
  SourceLoc loc;
};

// What a column of a table shows.
struct ColumnSpec {
  std::string source;                     // a metric, a parameter or a run time (run_times.hpp)
  std::string label;                      // header text (default: source)
  Aggregation agg = Aggregation::Median;  // largest_ok: the largest value among the ok runs
  std::string format;    // fmt spec for numbers, e.g. ".3f" (default: 4 significant digits)
  std::string unit;      // shown in the header, e.g. "samples/s" (derived: the derive's unit)
  ParamList speedup_of;  // non-empty: a speedup column, source(other row) / source(this row),
                         // the other row being this one with these row parameters replaced
  bool lower_is_better = false;  // speedup of a time: this / other instead
  // A calendar-time column (start, first_step, ...): `format` is strftime-like
  // (calendar_time.hpp) and the time zone is tz ("UTC", "+02:00"; "" = the case's startup.tz).
  std::string tz;
};

// A metric of a table computed per run from its parameters and metrics (muparserx formula),
// e.g. tflops = model_size_B * 4 * 2 * seq * gbs / (iter_s * gpus * 1e3).
struct TableDerive {
  std::string name;
  std::string formula;
  std::string unit;
  SourceLoc loc;
};

// A named table of a paper: rows keyed by parameters, columns from metrics or parameters.
struct TableSpec {
  std::string name;
  std::string title;
  std::vector<std::string> rows;  // parameters that identify a row, in order
  std::vector<ColumnSpec> columns;
  std::vector<ParamList> where;  // keep only runs matching one of these (empty = all)
  std::vector<Reference> references;
  double tolerance = 0.10;  // relative: |measured/paper - 1| <= tolerance passes
  SourceLoc loc;
  std::vector<TableDerive> derive;     // per-run formulas, usable as column sources, in order
  std::string pivot;                   // a parameter whose values become column groups
  std::vector<std::string> runs_from;  // other cases whose runs the table also uses
};

// A figure of a paper drawn from a table of the same case (gnuplot: SVG and PNG).
struct PlotSpec {
  std::string name;
  std::string title;
  std::string table;          // the table whose rows are plotted
  std::string kind = "line";  // line | bars
  std::string x;              // a row parameter of the table
  std::string y;              // a column (source or label) of the table
  std::string series;         // a row parameter: one line/bar group per value (empty = one series)
  bool fit_linear = false;    // least-squares line per series, with R² in the legend
  bool paper = true;          // draw the table's reference values as points
  std::string xlabel, ylabel;
  bool logy = false;
  SourceLoc loc;
};

// One parameter of the sweep: a fixed value (one entry) or a list swept over.
struct ParamSpec {
  std::string name;
  std::vector<Value> values;
  bool is_list = false;  // written as a YAML sequence (swept), even with one entry
  SourceLoc loc;
};

// Lists advanced together (the i-th values of every member form one point).
struct ZipGroup {
  std::vector<ParamSpec> members;
  SourceLoc loc;
};

// An extra sweep whose own lists are crossed; parameters it does not name come from `params`.
struct IncludeSpec {
  std::vector<ParamSpec> params;
  SourceLoc loc;
};

// A filter: all `match` entries equal (a list = any of), or a boolean condition (muparserx).
struct ExcludeSpec {
  std::vector<ParamSpec> match;  // each member's values: any of them matches
  std::string condition;         // e.g. "layers > 64 && method == \"l2l\""
  SourceLoc loc;
};

// A parameter computed from others, e.g. gbs = mbs * dp * gas.
struct DeriveSpec {
  std::string name;
  std::string formula;
  SourceLoc loc;
};

// A parameter searched rather than enumerated (`search:`), e.g. the largest `layers`
// between 16 and 128 whose run does not fail, found by bisection for every point of the rest of
// the sweep (run/search_runner.cpp).
struct SearchSpec {
  std::string param;  // the searched parameter (not in params, zip or derive)
  long long min = 0;  // candidates are min, min+step, ... up to max
  long long max = 0;
  long long step = 1;
  std::string goal = "largest_ok";  // largest_ok | smallest_ok
  SourceLoc loc;
};

// `provenance:` — a command whose output joins the environment record of every session that
// runs the case (docs/case-format.md#provenance), e.g. torch: "python -c 'import torch; ...'".
struct ProvenanceSpec {
  std::string name;
  std::string command;
  double timeout_s = 30;
  SourceLoc loc;
};

// `rundir:` — a directory of its own for every run (docs/case-format.md#rundir): created before
// the run (emptied for a new attempt, its earlier logs kept), inputs copied or linked into it,
// the run's working directory, its log and stamps there, cleaned after it as `keep` says.
struct RundirSpec {
  std::string
      path;  // a template ({case} {key} {repeat} {param}); "": <store's folder>/runs/{case}/{key}
  std::vector<std::string> copy;  // files or folders copied in (relative: from the workdir)
  std::vector<std::string> link;  // symbolic links made to these (relative: from the workdir)
  enum class Keep { All, Failed, None };
  Keep keep = Keep::All;  // what stays after the run: all, only failed runs', none (logs stay)
  SourceLoc loc;
};

// `steps:` — a setup command run before the runs (docs/case-format.md#steps): once per distinct
// value of the parameters it depends on (a build per `method`), reused once it succeeded with the
// same command and environment, stored as a run of case "<case>.<step>".
struct StepSpec {
  std::string name;
  std::string command;                  // {param} of depends_on, {case}
  std::vector<std::string> depends_on;  // parameters; none: the step runs once
  double timeout_s = 0;                 // 0: none
  SourceLoc loc;
};

struct CaseSpec {
  std::string file;  // absolute path of the case file
  std::string name;  // `case`
  std::string title;
  std::string paper;
  std::string figure;
  std::string workdir;  // absolute; relative paths resolve against the case file's folder
  ParamList env;        // exported to every run
  std::string shell = "/bin/bash";
  // The system profile applied (`aerun case --system NAME`, docs/systems.md): its name, and the
  // shell lines that set a run's environment up there (its module lines, setup lines and
  // variables), run before the case's own env: and command. Not part of a run's key.
  std::string system;
  std::vector<std::string> system_setup;
  std::vector<ProvenanceSpec> provenance;  // the case's own entries of the environment record
  std::optional<RundirSpec> rundir;        // nullopt: every run runs in the workdir
  std::vector<StepSpec> steps;             // setup steps, in file order

  std::vector<ParamSpec> params;  // in file order
  std::vector<ZipGroup> zips;
  std::vector<IncludeSpec> includes;
  std::vector<ExcludeSpec> excludes;
  std::vector<DeriveSpec> derive;

  std::string command;  // template with {param} placeholders
  SourceLoc command_loc;
  int repeat = 1;
  double timeout_s = 0;  // 0 = none
  SourceLoc timeout_loc;
  std::optional<PollInterval> poll_interval;  // `poll_interval:` for batch jobs
  // Watchdogs (0 = off): stop a run with no progress line for stall_s after its last
  // one (`stalled`), or with no first step first_step_s after its start (`startup_timeout`).
  // Either may vary per sweep point (`stall: "{stall}"`): the *_template text is then kept and
  // filled for each point by plan_runs (PlannedRun::stall_s / first_step_s).
  double stall_s = 0;
  std::string stall_template;
  SourceLoc stall_loc;
  double first_step_s = 0;
  std::string first_step_template;
  SourceLoc first_step_loc;
  bool stall_on() const { return stall_s > 0 || !stall_template.empty(); }
  bool first_step_on() const { return first_step_s > 0 || !first_step_template.empty(); }
  std::vector<std::string> warnings;  // found at load, printed when they matter (batch runs)
  // Which version of the case a run was made from. file_digest: SHA-256 of the case
  // file's text (shown); version: a digest of what decides how each point runs (command, shell,
  // env, launcher counts) — a run of another version is not the current case's result.
  std::string file_digest;
  std::string version;
  // The systems the case pins its own values for (`systems:`, by profile name): on each, its
  // runs are of the version the case has there.
  std::vector<std::string> pinned_systems;
  // `valid_systems:` (ReFrame's word): the systems the case may run on, by profile name (`local`
  // for no named one); empty: any.
  std::vector<std::string> valid_systems;
  SourceLoc valid_systems_loc;
  int retries = 0;                    // extra attempts within one invocation
  std::vector<std::string> retry_on;  // the statuses retried (empty: the transient ones)
  std::vector<std::string> rerun;     // failures a later invocation runs again (`rerun:`)
  bool exclusive_gpu = false;
  std::optional<LauncherSpec> launcher;    // `launcher:`; the command may then use {launch}
  std::optional<ContainerSpec> container;  // `container:`: every run inside this image

  std::vector<std::string> presets;  // named metric/status sets
  std::vector<MetricSpec> metrics;
  std::vector<StatusPattern> status;
  StartupSpec startup;
  CompletionSpec completion;  // the case's first, then its presets'
  std::vector<TableSpec> tables;
  std::vector<PlotSpec> plots;  // `plots:`
  // Batch schedulers.
  std::optional<Scheduler> scheduler;  // `scheduler:`, the default of --scheduler (None: local)
  ResourcesSpec resources;             // `resources:` of each job
  // Search sweeps. The loader also appends the searched parameter to `params` as the
  // list of every candidate value, so that placeholders, derive, exclude and tables see it as a
  // parameter; `aerun case` then bisects over it instead of enumerating it.
  std::optional<SearchSpec> search;
};

}  // namespace aerun
