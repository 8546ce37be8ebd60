#include "aerun/run/run_plan.hpp"

#include "aerun/util/process_identity.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <cstdint>

#include <map>
#include <memory>

#include "aerun/case/case_loader.hpp"
#include "aerun/run/launch_setup.hpp"
#include "aerun/sweep/command_template.hpp"
#include "aerun/sweep/evaluator.hpp"
#include "aerun/sweep/run_key.hpp"
#include "aerun/sweep/sweep.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

namespace {
bool same_value(const Value& v, const std::string& text) {
  if (v.text() == text) return true;
  const auto a = v.number();
  const auto b = Value::parse(text).number();
  return a && b && *a == *b;
}
}  // namespace

static bool unknown_variable(const InputError& e) {
  return e.message().rfind("unknown variable", 0) == 0;
}

// The --where condition, compiled once per combination of parameter names and kinds met (stored
// runs of several versions may differ): an evaluator of the `exclude:` language for each.
struct RunSelector::Condition {
  std::string text;
  std::map<std::string, std::unique_ptr<sweep_detail::Evaluator>> by_shape;

  bool holds(const ParamList& params, int repeat_index) {
    ParamList point = params;
    if (!find_param(point, "repeat")) point.push_back({"repeat", Value::of_int(repeat_index)});
    std::vector<std::string> names;
    std::vector<sweep_detail::VarKind> kinds;
    std::string shape;
    for (const auto& [name, v] : point) {
      names.push_back(name);
      const auto kind = v.kind() == Value::Kind::Bool ? sweep_detail::VarKind::Bool
                        : v.number()                  ? sweep_detail::VarKind::Number
                                                      : sweep_detail::VarKind::String;
      kinds.push_back(kind);
      shape += name + "/" + std::to_string(static_cast<int>(kind)) + ";";
    }
    auto it = by_shape.find(shape);
    if (it == by_shape.end()) {
      auto ev = std::make_unique<sweep_detail::Evaluator>(
          names, kinds, std::vector<sweep_detail::Formula>{},
          std::vector<sweep_detail::Formula>{{text, "--where", SourceLoc{}, 0}});
      ParamList probe = point;
      try {
        ev->validate(probe);
      } catch (const InputError& e) {
        // A run without a parameter the condition names (another case, an older version) is
        // not selected; every name was checked against the known parameters at construction.
        if (!unknown_variable(e)) throw;
        ev.reset();
      }
      it = by_shape.emplace(shape, std::move(ev)).first;
    }
    if (!it->second) return false;
    std::vector<char> dirty(point.size(), 1);
    it->second->load(point, dirty);
    return it->second->condition(0, point);
  }
};

RunSelector::RunSelector(const std::vector<std::string>& items,
                         const std::vector<std::string>& param_names, const std::string& where)
    : where_(where) {
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(SourceLoc{}, "--only",
                       fmt::format("'{}' is not KEY=VALUE[,VALUE...]", item));
    std::string key = item.substr(0, eq);
    std::string value = item.substr(eq + 1);
    bool known = key == "repeat";
    for (const auto& n : param_names) known = known || n == key;
    if (!known) {
      std::vector<std::string> valid = param_names;
      valid.push_back("repeat");
      const std::string near = nearest_key(key, valid);
      throw InputError(SourceLoc{}, "--only",
                       fmt::format("'{}' is no parameter of this case{}", key,
                                   near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near)));
    }
    // `np=1,2`: either value; the whole text too, for a value that holds commas itself.
    std::vector<std::string> values{value};
    if (value.find(',') != std::string::npos) {
      size_t from = 0;
      while (from <= value.size()) {
        const size_t comma = std::min(value.find(',', from), value.size());
        values.push_back(value.substr(from, comma - from));
        from = comma + 1;
      }
    }
    auto it = std::find_if(wanted_.begin(), wanted_.end(), [&](auto& w) { return w.first == key; });
    if (it == wanted_.end())
      wanted_.push_back({key, values});
    else
      it->second.insert(it->second.end(), values.begin(), values.end());
  }
  if (!where_.empty()) {
    // Parsed now, with every parameter a number, so that a syntax error stops before anything
    // runs; the kinds of a run's own values are used when it is tested.
    condition_ = std::make_unique<Condition>();
    condition_->text = where_;
    std::vector<std::string> names = param_names;
    if (std::find(names.begin(), names.end(), "repeat") == names.end()) names.push_back("repeat");
    std::vector<sweep_detail::VarKind> kinds(names.size(), sweep_detail::VarKind::Number);
    sweep_detail::Evaluator check(names, kinds, {}, {{where_, "--where", SourceLoc{}, 0}});
    ParamList probe;
    for (const auto& n : names) probe.push_back({n, Value::of_int(0)});
    try {
      check.validate(probe);
    } catch (const InputError& e) {
      if (unknown_variable(e)) throw;  // a type error may not be one with the real values
    }
  }
}

RunSelector::~RunSelector() = default;
RunSelector::RunSelector(RunSelector&&) noexcept = default;

bool RunSelector::keeps(const ParamList& params, int repeat_index) const {
  for (const auto& [key, values] : wanted_) {
    bool any = false;
    if (key == "repeat") {
      for (const auto& v : values) any = any || same_value(Value::of_int(repeat_index), v);
    } else if (const Value* p = find_param(params, key)) {
      for (const auto& v : values) any = any || same_value(*p, v);
    }
    if (!any) return false;
  }
  return !condition_ || condition_->holds(params, repeat_index);
}

bool RunSelector::may_keep(const std::string& name, const Value& v) const {
  for (const auto& [key, values] : wanted_)
    if (key == name)
      return std::any_of(values.begin(), values.end(),
                         [&](const std::string& want) { return same_value(v, want); });
  return true;
}

RunRecord new_run_record(const CaseSpec& spec, const PlannedRun& run, const std::string& host,
                         const std::string& git_commit) {
  RunRecord r;
  r.key = run.key;
  r.case_name = spec.name;
  r.case_file = spec.file;
  r.repeat_index = run.repeat_index;
  r.command = run.command;
  r.workdir = spec.workdir;
  r.params = run.params;
  r.env = spec.env;
  r.host = host;
  r.nodes = host;  // a batch job's own node list replaces it when the job is collected
  r.aerun_version = AERUN_VERSION;
  r.git_commit = git_commit;
  r.case_version = spec.version;
  r.case_digest = spec.file_digest;
  r.runner_pid = getpid();
  r.runner_start = self_identity().start_ticks;
  r.runner_boot = self_identity().boot_id;
  return r;
}

std::vector<std::string> planned_param_names(const CaseSpec& spec) {
  return Sweep(spec).names();
}

namespace {

// A sweep of more than kMaxPlannedRuns runs is refused with its size, at the first swept list.
void check_sweep_size(const CaseSpec& spec, const Sweep& sweep) {
  const size_t points = sweep.max_points();
  const auto repeat = static_cast<unsigned long long>(std::max(1, spec.repeat));
  const bool overflow = points == SIZE_MAX || points > kMaxPlannedRuns;
  const unsigned long long runs = overflow ? 0 : points * repeat;
  if (!overflow && runs <= kMaxPlannedRuns) return;
  SourceLoc loc{spec.file, 0, 0};
  for (const auto& p : spec.params)
    if (p.is_list) {
      loc = p.loc;
      break;
    }
  const std::string size =
      points == SIZE_MAX ? std::string("more than 2^64 points")
                         : fmt::format("{} points{}", points,
                                       repeat > 1 ? fmt::format(" x {} repeats", repeat) : "");
  throw InputError(loc, "params",
                   fmt::format("the sweep plans {} before exclude:, more than the {} runs a case "
                               "may plan; split the case or shorten its lists",
                               size, kMaxPlannedRuns));
}

// What `{launch}` renders: the launch line when the case has a launcher.
std::optional<std::string> launch_line(const CaseSpec& spec, const LaunchSetup& l) {
  if (!spec.launcher) return std::nullopt;
  return l.prefix;
}
// The launch lines of a sweep whose points size them (per-point nodes, GPUs or launcher counts):
// one launch setup and command template per distinct size, made when a point first needs it.
class PointLaunches {
 public:
  struct Launch {
    LaunchSetup setup;
    std::unique_ptr<CommandTemplate> tmpl;
  };
  PointLaunches(const CaseSpec& spec, std::vector<std::string> names)
      : spec_(spec), names_(std::move(names)) {}

  const Launch& of(const ResourcesSpec* res, const LauncherSpec& l) {
    const std::string size = fmt::format(
        "{}|{}|{}", res ? std::to_string(res->nodes.value_or(0)) : "-",
        res ? std::to_string(res->gpus_per_node.value_or(-1)) : "-", launcher_signature(l));
    auto found = by_size_.find(size);
    if (found == by_size_.end()) {
      Launch pl;
      pl.setup = prepare_launch(spec_, res, &l);
      pl.tmpl = std::make_unique<CommandTemplate>(spec_.command, spec_.command_loc, names_,
                                                  launch_line(spec_, pl.setup));
      found = by_size_.emplace(size, std::move(pl)).first;
    }
    return found->second;
  }

 private:
  const CaseSpec& spec_;
  const std::vector<std::string> names_;
  std::map<std::string, Launch> by_size_;  // by the sizes that shape the launch line
};

}  // namespace

void plan_runs(const CaseSpec& spec, const PlanOptions& opts,
               const std::function<bool(const PlannedRun&)>& fn) {
  const RunSelector* selector = opts.selector;
  const bool with_keys = opts.with_keys;
  const LaunchSetup* launch = opts.launch;
  Sweep sweep(spec);
  check_sweep_size(spec, sweep);
  const bool per_point = !spec.resources.per_point.empty();
  // Per-point sizes make one launch line per distinct (nodes, gpus_per_node), unless the caller
  // gave the launch (a batch job finds its own inside the allocation).
  const bool launcher_per_point = spec.launcher && !spec.launcher->per_point.empty();
  const bool launch_per_point =
      !launch && spec.launcher && (spec.resources.sizes_launch() || launcher_per_point);
  LaunchSetup own;
  if (!launch && !launch_per_point) {
    own = prepare_launch(spec);
    launch = &own;
  }
  std::unique_ptr<CommandTemplate> fixed;
  if (launch)
    fixed = std::make_unique<CommandTemplate>(spec.command, spec.command_loc, sweep.names(),
                                              launch_line(spec, *launch));
  PointLaunches launches(spec, sweep.names());
  std::map<std::string, std::shared_ptr<const ResourcesSpec>> resolved;
  std::map<std::string, std::shared_ptr<const LauncherSpec>> launchers;
  PlannedRun run;
  run.stall_s = spec.stall_s;
  run.first_step_s = spec.first_step_s;
  auto each = [&](const ParamList& point) {
    if (!spec.stall_template.empty())
      run.stall_s = resolve_duration(spec.stall_template, spec.stall_loc, "stall", point);
    if (!spec.first_step_template.empty())
      run.first_step_s =
          resolve_duration(spec.first_step_template, spec.first_step_loc, "first_step", point);
    const CommandTemplate* tmpl = fixed.get();
    std::shared_ptr<const ResourcesSpec> res;
    if (per_point) {
      auto r = std::make_shared<const ResourcesSpec>(resolve_resources(spec.resources, point));
      res = resolved.emplace(resources_signature(*r), r).first->second;
      run.resources = res;
    }
    if (launcher_per_point) {
      auto l = std::make_shared<const LauncherSpec>(resolve_launcher(*spec.launcher, point));
      run.launcher = launchers.emplace(launcher_signature(*l), l).first->second;
    }
    if (launch_per_point) {
      const auto& pl = launches.of(res.get(), run.launcher ? *run.launcher : *spec.launcher);
      tmpl = pl.tmpl.get();
      run.env = pl.setup.env;
    }
    for (int r = 0; r < spec.repeat; ++r) {
      if (selector && !selector->keeps(point, r)) continue;
      if (selector && !selector->empty())
        run.params = point;
      else if (with_keys)
        run.params = point;
      run.repeat_index = r;
      run.command = tmpl->render(point, spec.name, r);
      if (with_keys) run.key = run_key(spec.name, run.command, point, spec.env, r);
      if (!fn(run)) return false;
    }
    return true;
  };
  // --only values rule points out before they are made (a few runs of a huge sweep cost a few).
  if (selector && !selector->empty())
    sweep.for_each(each, [selector](const std::string& name, const Value& v) {
      return selector->may_keep(name, v);
    });
  else
    sweep.for_each(each);
}

}  // namespace aerun
