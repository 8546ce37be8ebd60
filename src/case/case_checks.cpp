// Checks across the sections of a case file, run once every section is read.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "aerun/case/case_loader.hpp"
#include "aerun/record/run_times.hpp"
#include "aerun/util/template_text.hpp"
#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

// Each parameter is defined once across params, zip members and derive.
void check_unique_names(const CaseSpec& spec) {
  std::map<std::string, SourceLoc> seen;
  auto add = [&](const std::string& name, const SourceLoc& loc, const std::string& section) {
    const auto [it, fresh] = seen.emplace(name, loc);
    if (!fresh)
      throw InputError(loc, section + "." + name,
                       "parameter '" + name + "' is defined twice (first at line " +
                           std::to_string(it->second.line) + ")");
  };
  for (const auto& p : spec.params) add(p.name, p.loc, "params");
  for (const auto& g : spec.zips)
    for (const auto& m : g.members) add(m.name, m.loc, "zip");
  for (const auto& d : spec.derive) add(d.name, d.loc, "derive");
}

// Parameters an include or exclude names must exist (derived ones only after derive: exclude).
void check_named(const std::vector<ParamSpec>& named, const std::vector<std::string>& valid,
                 const std::string& section, size_t index) {
  for (const auto& p : named)
    if (!contains(valid, p.name))
      throw InputError(p.loc, section + "[" + std::to_string(index) + "]." + p.name,
                       "unknown parameter '" + p.name + "'" + did_you_mean(p.name, valid));
}

// Where `{name}` (the i-th placeholder of the command) was written in the file: found by
// scanning the file text from the command's value in order; the command's location otherwise.
class PlaceholderLocator {
 public:
  PlaceholderLocator(const YamlReader& r, const CaseSpec& spec) : r_(r), spec_(spec) {
    const SourceLoc& l = spec.command_loc;
    size_t line = 1, pos = 0;
    const std::string& text = r.text();
    while (pos < text.size() && line < static_cast<size_t>(l.line))
      if (text[pos++] == '\n') ++line;
    start_ = std::min(text.size(), pos + static_cast<size_t>(std::max(l.col - 1, 0)));
    raw_ = placeholders(text.substr(start_));
  }

  SourceLoc find(const std::string& name) {
    for (; next_ < raw_.size(); ++next_)
      if (raw_[next_].name == name) return r_.loc_at(start_ + raw_[next_++].offset);
    return spec_.command_loc;
  }

 private:
  const YamlReader& r_;
  const CaseSpec& spec_;
  size_t start_ = 0;
  std::vector<Placeholder> raw_;
  size_t next_ = 0;
};

void check_command(const YamlReader& r, const CaseSpec& spec) {
  std::vector<std::string> valid = parameter_names(spec);
  for (const auto& b : builtin_placeholders()) valid.push_back(b);
  if (spec.launcher) valid.push_back("launch");  // the launcher's prefix
  PlaceholderLocator where(r, spec);
  const std::vector<std::string> params = parameter_names(spec);
  for (const auto& ph : placeholders(spec.command)) {
    const SourceLoc loc = where.find(ph.name);
    if (!contains(valid, ph.name))
      throw InputError(loc, "command",
                       "placeholder '{" + ph.name + "}' names no parameter" +
                           did_you_mean(ph.name, valid) + " (write {{ and }} for literal braces)");
    if (ph.name == "rundir" && !spec.rundir && !contains(params, "rundir"))
      throw InputError(loc, "command",
                       "placeholder '{rundir}' needs a run directory: add `rundir:` to the case "
                       "(e.g. `rundir: {keep: failed}`)");
  }
}

// A step depends on parameters, and its command names only those (and {case}).
void check_steps(const CaseSpec& spec) {
  if (spec.search && !spec.steps.empty())
    throw InputError(spec.steps.front().loc, "steps",
                     "a search case cannot have setup steps yet: run them as a case of their own");
  const std::vector<std::string> params = parameter_names(spec);
  for (const auto& step : spec.steps) {
    const std::string key = "steps." + step.name;
    for (const auto& d : step.depends_on)
      if (!contains(params, d))
        throw InputError(step.loc, key + ".depends_on",
                         "'" + d + "' is no parameter" + did_you_mean(d, params));
    for (const auto& ph : placeholders(step.command))
      if (ph.name != "case" && !contains(step.depends_on, ph.name))
        throw InputError(
            step.loc, key + ".command",
            "placeholder '{" + ph.name +
                "}': a step's command names only the "
                "parameters it depends on" +
                (contains(params, ph.name) ? " (add it: `depends_on: [" + ph.name + "]`)"
                                           : did_you_mean(ph.name, step.depends_on)));
    if (std::count_if(spec.steps.begin(), spec.steps.end(),
                      [&](const StepSpec& s) { return s.name == step.name; }) > 1)
      throw InputError(step.loc, key, "two steps named '" + step.name + "'");
  }
}

// `rundir: {path}`: parameters and {case}, {key}, {repeat}.
void check_rundir(const CaseSpec& spec) {
  if (!spec.rundir) return;
  std::vector<std::string> valid = parameter_names(spec);
  for (const char* b : {"case", "key", "repeat"}) valid.push_back(b);
  std::vector<std::string> used;
  for (const auto& ph : placeholders(spec.rundir->path)) {
    if (!contains(valid, ph.name))
      throw InputError(spec.rundir->loc, "rundir.path",
                       "placeholder '{" + ph.name + "}' names no parameter" +
                           did_you_mean(ph.name, valid) + " ({case}, {key} and {repeat} too)");
    used.push_back(ph.name);
  }
  if (spec.rundir->path.empty() || contains(used, "key")) return;
  // Without {key}, every value that tells two runs apart must be in the path.
  std::vector<std::string> varying;
  for (const auto& p : spec.params)
    if (p.values.size() > 1) varying.push_back(p.name);
  for (const auto& g : spec.zips)
    for (const auto& m : g.members)
      if (m.values.size() > 1) varying.push_back(m.name);
  for (const auto& inc : spec.includes)
    for (const auto& p : inc.params)
      if (!contains(varying, p.name)) varying.push_back(p.name);
  if (spec.repeat > 1) varying.push_back("repeat");
  for (const auto& name : varying)
    if (!contains(used, name))
      throw InputError(spec.rundir->loc, "rundir.path",
                       "'" + spec.rundir->path + "' has no {" + name +
                           "}: runs that differ in it would share one directory (add {" + name +
                           "}, or {key})");
}

// `{name}` in a per-point resource value must name a parameter (built-ins are no resource).
void check_resources(CaseSpec& spec) {
  const std::vector<std::string> valid = parameter_names(spec);
  for (const auto& t : spec.resources.per_point)
    for (const auto& ph : placeholders(t.text))
      if (!contains(valid, ph.name))
        throw InputError(
            t.loc, "resources." + t.name,
            "placeholder '{" + ph.name + "}' names no parameter" + did_you_mean(ph.name, valid));
  if (spec.launcher)
    for (const auto& t : spec.launcher->per_point)
      for (const auto& ph : placeholders(t.text))
        if (!contains(valid, ph.name))
          throw InputError(
              t.loc, "launcher." + t.name,
              "placeholder '{" + ph.name + "}' names no parameter" + did_you_mean(ph.name, valid));
  // Per-point watchdogs (`stall: "{stall}"`): parameters only, as resources.
  for (const auto& [tmpl, loc, key] :
       {std::tuple{&spec.stall_template, &spec.stall_loc, "stall"},
        std::tuple{&spec.first_step_template, &spec.first_step_loc, "first_step"}})
    for (const auto& ph : placeholders(*tmpl))
      if (!contains(valid, ph.name))
        throw InputError(
            *loc, key,
            "placeholder '{" + ph.name + "}' names no parameter" + did_you_mean(ph.name, valid));
  const ResourcesSpec& r = spec.resources;
  if (spec.timeout_s > 0 && r.walltime_s > 0 && r.walltime_s < spec.timeout_s)
    spec.warnings.push_back(fmt::format(
        "{}:{}: walltime ({:g} s) is shorter than the timeout ({:g} s, {}:{}): the scheduler will "
        "end runs before aerun's timeout does",
        r.walltime_loc.file, r.walltime_loc.line, r.walltime_s, spec.timeout_s,
        spec.timeout_loc.file, spec.timeout_loc.line));
}

}  // namespace

std::vector<std::string> parameter_names(const CaseSpec& spec) {
  std::vector<std::string> names;
  for (const auto& p : spec.params) names.push_back(p.name);
  for (const auto& g : spec.zips)
    for (const auto& m : g.members) names.push_back(m.name);
  for (const auto& d : spec.derive) names.push_back(d.name);
  return names;
}

void check_case(const YamlReader& r, CaseSpec& spec) {
  check_unique_names(spec);
  std::vector<std::string> swept;  // what include may set: params and zip members
  for (const auto& p : spec.params) swept.push_back(p.name);
  for (const auto& g : spec.zips)
    for (const auto& m : g.members) swept.push_back(m.name);
  for (size_t i = 0; i < spec.includes.size(); ++i)
    check_named(spec.includes[i].params, swept, "include", i);
  const std::vector<std::string> all = parameter_names(spec);
  for (size_t i = 0; i < spec.excludes.size(); ++i)
    check_named(spec.excludes[i].match, all, "exclude", i);
  for (const auto& m : spec.metrics)
    if (contains(all, m.name) || find_run_time(m.name))
      throw InputError(m.loc, "metrics." + m.name,
                       "metric '" + m.name +
                           "' has the name of a parameter or of a run time (start, first_step, "
                           "end, startup_s, ...); rename one");
  check_command(r, spec);
  check_rundir(spec);
  check_steps(spec);
  check_resources(spec);
  check_watchdogs(spec);
}

}  // namespace aerun::detail

namespace aerun {

void check_watchdogs(const CaseSpec& spec) {
  // The watchdogs need to know what progress and a first step look like.
  if (spec.stall_on() && std::none_of(spec.metrics.begin(), spec.metrics.end(),
                                      [](const MetricSpec& m) { return m.progress; }))
    throw InputError(spec.stall_loc, "stall",
                     "a stall is a time without progress lines: flag a metric `progress: true` "
                     "(or use a preset that does, e.g. megatron)");
  if (spec.first_step_on() && spec.startup.first_step.empty())
    throw InputError(spec.first_step_loc, "first_step",
                     "the first step is seen by the case's `startup` pattern (or a preset's, e.g. "
                     "megatron): give one");
}

}  // namespace aerun
