#include "aerun/run_plan.hpp"

#include "aerun/process_identity.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <map>
#include <memory>

#include "aerun/case_loader.hpp"
#include "aerun/command_template.hpp"
#include "aerun/error.hpp"
#include "aerun/launch_setup.hpp"
#include "aerun/run_key.hpp"
#include "aerun/sweep.hpp"

namespace aerun {

namespace {
bool same_value(const Value& v, const std::string& text) {
  if (v.text() == text) return true;
  const auto a = v.number();
  const auto b = Value::parse(text).number();
  return a && b && *a == *b;
}
}  // namespace

RunSelector::RunSelector(const std::vector<std::string>& items,
                         const std::vector<std::string>& param_names) {
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(SourceLoc{}, "--only", fmt::format("'{}' is not KEY=VALUE", item));
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
    auto it = std::find_if(wanted_.begin(), wanted_.end(), [&](auto& w) { return w.first == key; });
    if (it == wanted_.end())
      wanted_.push_back({key, {value}});
    else
      it->second.push_back(value);
  }
}

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

void plan_runs(const CaseSpec& spec, const RunSelector* selector,
               const std::function<bool(const PlannedRun&)>& fn, bool with_keys,
               const LaunchSetup* launch) {
  Sweep sweep(spec);
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
    fixed = std::make_unique<CommandTemplate>(launch->command_template, spec.command_loc,
                                              sweep.names());
  struct PointLaunch {
    LaunchSetup setup;
    std::unique_ptr<CommandTemplate> tmpl;
  };
  std::map<std::string, PointLaunch> launches;  // by the sizes that shape the launch line
  std::map<std::string, std::shared_ptr<const ResourcesSpec>> resolved;
  std::map<std::string, std::shared_ptr<const LauncherSpec>> launchers;
  PlannedRun run;
  sweep.for_each([&](const ParamList& point) {
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
      const LauncherSpec& l = run.launcher ? *run.launcher : *spec.launcher;
      const std::string size = fmt::format(
          "{}|{}|{}", res ? std::to_string(res->nodes.value_or(0)) : "-",
          res ? std::to_string(res->gpus_per_node.value_or(-1)) : "-", launcher_signature(l));
      auto found = launches.find(size);
      if (found == launches.end()) {
        PointLaunch pl;
        pl.setup = prepare_launch(spec, res.get(), &l);
        pl.tmpl = std::make_unique<CommandTemplate>(pl.setup.command_template, spec.command_loc,
                                                    sweep.names());
        found = launches.emplace(size, std::move(pl)).first;
      }
      tmpl = found->second.tmpl.get();
      run.env = found->second.setup.env;
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
  });
}

}  // namespace aerun
