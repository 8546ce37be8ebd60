#include "aerun/run/setup_steps.hpp"

#include <fmt/format.h>

#include <ostream>

#include "aerun/case/case_loader.hpp"
#include "aerun/judge/run_status.hpp"
#include "aerun/store/store.hpp"
#include "aerun/sweep/command_template.hpp"
#include "aerun/sweep/run_key.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {

// A step as a case of its own: the case's workdir, shell, env and file; its own name, command
// and timeout; judged by its exit code (no metrics, no patterns).
CaseSpec as_case(const CaseSpec& spec, const StepSpec& step) {
  CaseSpec c;
  c.file = spec.file;
  c.name = spec.name + "." + step.name;
  c.title = "setup step " + step.name + " of " + spec.name;
  c.workdir = spec.workdir;
  c.env = spec.env;
  c.shell = spec.shell;
  c.command = step.command;
  c.command_loc = step.loc;
  c.timeout_s = step.timeout_s;
  c.timeout_loc = step.loc;
  c.resources = spec.resources;
  c.file_digest = spec.file_digest;
  c.system = spec.system;  // a step on Polaris is not the step on Aurora
  c.version = case_version(c);
  return c;
}

std::string values_text(const ParamList& values) {
  std::string out;
  for (const auto& [n, v] : values) out += (out.empty() ? "" : " ") + n + "=" + v.text();
  return out;
}

}  // namespace

struct SetupSteps::Step {
  Step(const CaseSpec& spec, const StepSpec& s)
      : spec(&s),
        case_name(spec.name),
        step_case(as_case(spec, s)),
        tmpl(s.command, s.loc, s.depends_on) {}
  const StepSpec* spec;
  std::string case_name;  // the case's ({case} in the step's command)
  CaseSpec step_case;
  CommandTemplate tmpl;
  struct Instance {
    PlannedRun plan;
    std::optional<bool> ok;  // nullopt: not run (an earlier step failed, or a stop)
  };
  std::map<std::string, Instance> instances;  // by key
  std::vector<std::string> order;             // their keys in the order runs first needed them

  // The instance a run needs: its values of depends_on, rendered and keyed.
  PlannedRun plan_for(const PlannedRun& run) const {
    PlannedRun p;
    for (const auto& name : spec->depends_on)
      if (const Value* v = find_param(run.params, name)) p.params.emplace_back(name, *v);
    p.command = tmpl.render(p.params, case_name, 0);
    p.key = run_key(step_case.name, p.command, p.params, step_case.env, 0, step_case.system);
    return p;
  }
};

SetupSteps::SetupSteps(const CaseSpec& spec) : spec_(spec) {
  for (const auto& s : spec.steps) steps_.push_back(std::make_unique<Step>(spec, s));
}

SetupSteps::~SetupSteps() = default;

std::vector<std::string> SetupSteps::combo_of(const PlannedRun& run) const {
  std::vector<std::string> keys;
  for (const auto& s : steps_) keys.push_back(s->plan_for(run).key);
  return keys;
}

void SetupSteps::need(const PlannedRun& run) {
  if (steps_.empty()) return;
  std::vector<std::string> keys;
  for (auto& s : steps_) {
    PlannedRun p = s->plan_for(run);
    keys.push_back(p.key);
    if (!s->instances.count(keys.back())) {
      s->order.push_back(keys.back());
      s->instances.emplace(keys.back(), Step::Instance{std::move(p), std::nullopt});
    }
  }
  combos_.insert(std::move(keys));
}

RunSummary SetupSteps::run(Store& store, RunnerOptions opts, std::ostream& out, Executor& exec) {
  RunSummary all;
  opts.rerun_failed = true;  // a failed step is a setup problem to fix, never a result to keep
  for (size_t i = 0; i < steps_.size(); ++i) {
    Step& s = *steps_[i];
    // The instances wanted by runs whose earlier steps all succeeded.
    std::set<std::string> wanted;
    for (const auto& combo : combos_) {
      bool ready = true;
      for (size_t j = 0; j < i && ready; ++j) {
        const auto& inst = steps_[j]->instances.at(combo[j]);
        ready = inst.ok && *inst.ok;
      }
      if (ready) wanted.insert(combo[i]);
    }
    std::vector<PlannedRun> planned;
    for (const auto& key : s.order)
      if (wanted.count(key)) planned.push_back(s.instances.at(key).plan);
    if (planned.empty()) continue;
    CaseRunner runner(s.step_case, store, opts, out, exec);
    const RunSummary sum = runner.run(planned);
    for (const auto& key : wanted) {
      const auto r = store.find_by_key(key);
      s.instances.at(key).ok = r && r->status == run_status::ok;
    }
    all.planned += sum.planned;
    all.reused += sum.reused;
    all.ok += sum.ok;
    all.failed += sum.failed;
    all.interrupted += sum.interrupted;
    all.busy += sum.busy;
    if (sum.stop_signal) {
      all.stop_signal = sum.stop_signal;
      break;
    }
  }
  return all;
}

std::string SetupSteps::Blocked::text() const {
  return fmt::format("step {}{} {}", step, params.empty() ? "" : " (" + params + ")", why);
}

std::optional<SetupSteps::Blocked> SetupSteps::blocked(const PlannedRun& run) const {
  for (const auto& s : steps_) {
    const PlannedRun p = s->plan_for(run);
    const auto it = s->instances.find(p.key);
    if (it == s->instances.end() || !it->second.ok || !*it->second.ok)
      return Blocked{s->spec->name, p.params.empty() ? "" : values_text(p.params),
                     it != s->instances.end() && it->second.ok ? "failed" : "did not run"};
  }
  return std::nullopt;
}

std::string SetupSteps::plan_text() const {
  std::string out;
  for (const auto& s : steps_) {
    for (const auto& key : s->order) {
      const auto& inst = s->instances.at(key);
      out += fmt::format(
          "# setup step {}{}, before the runs that need it:\n", s->spec->name,
          inst.plan.params.empty() ? "" : " (" + printable(values_text(inst.plan.params)) + ")");
      // In a subshell: an `exit` in the step ends the step; a failed step ends the script, as
      // a run starts only once its steps succeeded.
      std::string cmd = inst.plan.command;
      while (!cmd.empty() && cmd.back() == '\n') cmd.pop_back();
      out += "(\n" + cmd + "\n) || exit\n";
    }
  }
  return out;
}

const CaseSpec& SetupSteps::step_case(size_t i) const {
  return steps_.at(i)->step_case;
}

std::vector<PlannedRun> SetupSteps::instances(size_t i) const {
  std::vector<PlannedRun> out;
  for (const auto& key : steps_.at(i)->order) out.push_back(steps_.at(i)->instances.at(key).plan);
  return out;
}

std::string SetupSteps::instance_key(size_t i, const PlannedRun& run) const {
  return steps_.at(i)->plan_for(run).key;
}

}  // namespace aerun
