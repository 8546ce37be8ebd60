// A case's runs on this host, after the setup steps they need: the one order of `aerun case`
// (cmd_case.cpp) and of runs made as job steps inside an allocation (batch_case.cpp).
#pragma once

#include <iosfwd>

#include "aerun/case/case_spec.hpp"
#include "aerun/run/case_runner.hpp"
#include "aerun/run/executor.hpp"
#include "aerun/run/setup_steps.hpp"

namespace aerun {

class Store;

// What became of the setup steps and of the runs.
struct StepsThenRunsOutcome {
  RunSummary steps, runs;
  long long blocked = 0;  // runs not started: a step they need failed
  // 128 + the stop signal of the steps or the runs; 1 when a step blocked a run or a run failed
  // (RunSummary::exit_status); else 0.
  int exit_status() const {
    return steps.stop_signal ? 128 + steps.stop_signal : runs.exit_status(blocked);
  }
};

// Runs (or reuses) the setup steps `steps` noted (SetupSteps::need, for every run `source`
// gives), then streams the runs of source into a CaseRunner, except those a failed step blocks:
// they are counted and said on out with the first failed step and where its log is. A stop
// signal during the steps starts no run. total: how many runs source gives.
StepsThenRunsOutcome run_steps_then_runs(const CaseSpec& spec, SetupSteps& steps, Store& store,
                                         const RunnerOptions& opts,
                                         const CaseRunner::PlanSource& source, long long total,
                                         std::ostream& out, Executor& exec = system_executor());

}  // namespace aerun
