// The setup steps of a case (`steps:`, docs/case-format.md#steps) for the runs of one invocation:
// which instances the selected runs need (a step once per distinct value of the parameters it
// depends on), run or reused before them, and which runs may start once they are done.
#pragma once

#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/run/case_runner.hpp"
#include "aerun/run/executor.hpp"
#include "aerun/run/run_plan.hpp"

namespace aerun {

class Store;

class SetupSteps {
 public:
  explicit SetupSteps(const CaseSpec& spec);
  ~SetupSteps();
  SetupSteps(const SetupSteps&) = delete;
  SetupSteps& operator=(const SetupSteps&) = delete;

  bool empty() const { return steps_.empty(); }
  // Notes the step instances this run needs (its parameters must be set).
  void need(const PlannedRun& run);

  // Runs (or reuses, as runs are) every instance the noted runs need, step after step in file
  // order, each stored as a run of case "<case>.<step>" in the runner's session. An instance is
  // run only for runs whose earlier steps succeeded. A stored failure is always run again (it is
  // a setup problem, not a result). Returns the summary of all of them.
  RunSummary run(Store& store, RunnerOptions opts, std::ostream& out,
                 Executor& exec = system_executor());
  // Why a run may not start: the first step instance it needs that did not succeed.
  struct Blocked {
    std::string step;    // the step's name ("build")
    std::string params;  // the instance's parameters ("method=l2l"), "" when it has none
    std::string why;     // "failed" or "did not run"
    // "step build (method=l2l) failed"
    std::string text() const;
  };
  // Nothing when every instance the run needs succeeded.
  std::optional<Blocked> blocked(const PlannedRun& run) const;

  // For --dry-run: a comment and the command of every noted instance, step by step, each in a
  // subshell (`( ... ) || exit`): a failed step ends the script, as its runs would not start.
  std::string plan_text() const;

  // Step i as a case of its own, and its noted instances as planned runs (for batch jobs).
  size_t size() const { return steps_.size(); }
  const CaseSpec& step_case(size_t i) const;
  std::vector<PlannedRun> instances(size_t i) const;
  // The instance of step i that a run needs (its key).
  std::string instance_key(size_t i, const PlannedRun& run) const;

 private:
  struct Step;
  std::vector<std::string> combo_of(const PlannedRun& run) const;
  const CaseSpec& spec_;
  std::vector<std::unique_ptr<Step>> steps_;
  std::set<std::vector<std::string>> combos_;  // per distinct run: each step's instance key
};

}  // namespace aerun
