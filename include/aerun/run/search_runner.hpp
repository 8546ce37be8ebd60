// Search sweeps (`search:` in a case file): for every point of the rest of the sweep, the largest
// (or smallest) value of the searched parameter whose run succeeds, found by bisection. Every
// probe is a real run through CaseRunner: same keys, logs and store rows as any run.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/run/bisection.hpp"
#include "aerun/run/case_runner.hpp"
#include "aerun/run/launch_setup.hpp"
#include "aerun/run/run_plan.hpp"

namespace aerun {

// What the search found for one point of the rest of the sweep.
struct SearchOutcome {
  std::string point;               // "method=l2l": the parameters that differ between points
  std::optional<long long> value;  // the value found (none: the first probe failed, or stopped)
  bool finished = false;           // false: stopped before the end (interrupted, busy)
  std::string stopped_by;          // why it did not finish, e.g. "72 interrupted"
  std::vector<Probe> probes;       // in the order decided (reused ones first)
  std::vector<std::string> warnings;
};

struct SearchSummary {
  std::vector<SearchOutcome> points;
  int reused = 0;       // probes decided by runs already in the store
  int probes_run = 0;   // probes run and decided by this invocation
  int stop_signal = 0;  // SIGINT/SIGTERM that stopped the search, or 0
  // 0: every point has its value; 1: some point has none or did not finish; 128+signal.
  int exit_code() const;
};

// Drives CaseRunner one probe batch at a time: each round, the next probe of every unfinished
// point runs (in parallel with -j), then each point's bisection narrows. A probe is pass when all
// its repeats are ok, fail with any other final status (oom, failed, timeout, ...). Probes with
// finished runs in the store (any status but running/interrupted) are reused without running,
// unless opts.force; so an interrupted search resumes and a finished one is replayed.
class SearchRunner {
 public:
  // spec.search must be set.
  SearchRunner(const CaseSpec& spec, Store& store, RunnerOptions opts, std::ostream& out);
  // Runs the search of every point kept by the selector; prints each point's result to out.
  SearchSummary run(const RunSelector* selector, const LaunchSetup& launch);

 private:
  const CaseSpec& spec_;
  Store& store_;
  RunnerOptions opts_;
  std::ostream& out_;
};

// `--dry-run` of a search case: for each point, the commands of its first probe, and the most
// probes the adaptive search may make.
void print_search_plan(const CaseSpec& spec, const RunSelector* selector, const LaunchSetup& launch,
                       std::ostream& out);

}  // namespace aerun
