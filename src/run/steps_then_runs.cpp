#include "aerun/run/steps_then_runs.hpp"

#include <fmt/format.h>

#include <optional>
#include <ostream>

namespace aerun {

StepsThenRunsOutcome run_steps_then_runs(const CaseSpec& spec, SetupSteps& steps, Store& store,
                                         const RunnerOptions& opts,
                                         const CaseRunner::PlanSource& source, long long total,
                                         std::ostream& out, Executor& exec) {
  StepsThenRunsOutcome o;
  std::optional<SetupSteps::Blocked> first_block;
  if (!steps.empty()) {
    o.steps = steps.run(store, opts, out, exec);
    if (o.steps.stop_signal) return o;
    if (o.steps.failed > 0 || o.steps.interrupted > 0 || o.steps.busy > 0)
      source([&](const PlannedRun& r) {
        if (auto b = steps.blocked(r)) {
          ++o.blocked;
          if (!first_block) first_block = std::move(b);
        }
        return true;
      });
  }
  CaseRunner runner(spec, store, opts, out, exec);
  o.runs = runner.run(
      [&](const std::function<bool(const PlannedRun&)>& sink) {
        source([&](const PlannedRun& r) {
          return o.blocked > 0 && steps.blocked(r) ? true : sink(r);
        });
      },
      total - o.blocked);
  if (o.blocked > 0)
    out << fmt::format(
        "aerun: {} run{} of case '{}' not started: {} (its log: aerun runs --case {}.{})\n",
        o.blocked, o.blocked == 1 ? "" : "s", spec.name, first_block->text(), spec.name,
        first_block->step);
  return o;
}

}  // namespace aerun
