#include "aerun/run/run_plan.hpp"

#include "aerun/util/process_identity.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <cstdint>

#include <map>
#include <memory>

#include "aerun/case/case_loader.hpp"
#include "aerun/launch/container_line.hpp"
#include "aerun/run/image_digest.hpp"
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

std::string planned_image_digest(const CaseSpec& spec, const PlannedRun& run) {
  return spec.container && !run.image.empty()
             ? image_digest(spec.container->runtime, run.image, spec.workdir)
             : "";
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
  r.system = spec.system;
  r.container_image = run.image;
  r.container_digest = planned_image_digest(spec, run);
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

// How a point's command is made: its template (with the launch line, and the container placed
// around the launcher) and, for a container with no launcher, the wrap of the whole command.
struct CommandShape {
  std::unique_ptr<CommandTemplate> tmpl;
  std::optional<ContainerLine> container;
  std::string image;  // the image it runs inside ("" none)
  std::string render(const ParamList& point, const std::string& case_name, int repeat) const {
    std::string c = tmpl->render(point, case_name, repeat);
    return container ? command_in_container(c, *container) : c;
  }
};

// The command shapes of a case: one per distinct launch line and container (a sweep whose points
// size the launch or name their own image has several), made when a point first needs one.
class CommandShapes {
 public:
  CommandShapes(const CaseSpec& spec, std::vector<std::string> names)
      : spec_(spec), names_(std::move(names)) {}

  const CommandShape& of(const LaunchSetup& l, const ContainerSpec* c) {
    std::string key = l.prefix;
    if (c) key += '\0' + container_signature(*c);
    auto found = shapes_.find(key);
    if (found != shapes_.end()) return found->second;
    CommandShape s;
    // What `{launch}` renders: the launch line when the case has a launcher.
    std::optional<std::string> launch;
    if (spec_.launcher) launch = l.prefix;
    if (c) {
      ContainerContext ctx;
      ctx.launcher = spec_.launcher ? spec_.launcher->kind : "";
      ctx.gpu_vendor = l.gpu_vendor;
      for (const auto& [name, value] : spec_.env) ctx.forwarded.push_back(name);
      for (const auto& e : l.env) ctx.forwarded.push_back(e.name);
      if (spec_.rundir) {
        ctx.same_path.push_back(spec_.workdir);
        for (const auto& target : spec_.rundir->link)
          if (!target.empty() && target[0] == '/' && target.rfind(spec_.workdir + "/", 0) != 0)
            ctx.same_path.push_back(target);
      }
      s.container = container_line(*c, ctx);
      s.image = c->image;
      if (launch) launch = launch_in_container(*launch, *s.container);
    }
    s.tmpl = std::make_unique<CommandTemplate>(spec_.command, spec_.command_loc, names_, launch);
    return shapes_.emplace(std::move(key), std::move(s)).first->second;
  }

 private:
  const CaseSpec& spec_;
  const std::vector<std::string> names_;
  std::map<std::string, CommandShape> shapes_;
};

// The launch setups of a sweep whose points size them (per-point nodes, GPUs or launcher counts):
// one per distinct size, made when a point first needs it.
class PointLaunches {
 public:
  explicit PointLaunches(const CaseSpec& spec) : spec_(spec) {}

  const LaunchSetup& of(const ResourcesSpec* res, const LauncherSpec& l) {
    const std::string size = fmt::format(
        "{}|{}|{}", res ? std::to_string(res->nodes.value_or(0)) : "-",
        res ? std::to_string(res->gpus_per_node.value_or(-1)) : "-", launcher_signature(l));
    auto found = by_size_.find(size);
    if (found == by_size_.end())
      found = by_size_.emplace(size, prepare_launch(spec_, res, &l)).first;
    return found->second;
  }

 private:
  const CaseSpec& spec_;
  std::map<std::string, LaunchSetup> by_size_;  // by the sizes that shape the launch line
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
  const bool container_per_point = spec.container && spec.container->per_point;
  const ContainerSpec* container = spec.container ? &*spec.container : nullptr;
  CommandShapes shapes(spec, sweep.names());
  const CommandShape* fixed =
      launch && !container_per_point ? &shapes.of(*launch, container) : nullptr;
  PointLaunches launches(spec);
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
    const CommandShape* shape = fixed;
    const LaunchSetup* setup = launch;
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
      setup = &launches.of(res.get(), run.launcher ? *run.launcher : *spec.launcher);
      run.env = setup->env;
    }
    if (!shape) {
      std::optional<ContainerSpec> own_image;
      if (container_per_point) own_image = resolve_container(*spec.container, point);
      shape = &shapes.of(*setup, own_image ? &*own_image : container);
    }
    for (int r = 0; r < spec.repeat; ++r) {
      if (selector && !selector->keeps(point, r)) continue;
      if (selector && !selector->empty())
        run.params = point;
      else if (with_keys)
        run.params = point;
      run.repeat_index = r;
      run.command = shape->render(point, spec.name, r);
      run.image = shape->image;
      if (with_keys) run.key = run_key(spec.name, run.command, point, spec.env, r, spec.system);
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
