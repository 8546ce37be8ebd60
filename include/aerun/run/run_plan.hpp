// The concrete runs of a case: every sweep point times `repeat`, with its command and key.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/case/launcher_spec.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/run/launch_setup.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

// One run to make (or to reuse): a point of the sweep and one of its repeats.
struct PlannedRun {
  ParamList params;
  int repeat_index = 0;
  std::string command;  // fully expanded, shell-ready
  std::string key;
  // This point's resources when the case's vary per point (`nodes: "{nodes}"`); null: the case's.
  std::shared_ptr<const ResourcesSpec> resources;
  // "NAME=value" rendezvous variables of this point's own launch line (per-point nodes, local).
  EnvVars env;
  // This point's launcher when its counts vary per point (`ranks: "{np}"`); null: the case's.
  std::shared_ptr<const LauncherSpec> launcher;
  // The watchdogs for this point (the case's, or filled from `stall: "{stall}"`); 0 = off.
  double stall_s = 0;
  double first_step_s = 0;
  std::string image;  // the image it runs inside (case `container:`, filled per point); "" none
};

// The identity of the image a planned run starts inside (image_digest.hpp); "" on the host.
std::string planned_image_digest(const CaseSpec& spec, const PlannedRun& run);

// The resources the run's job asks for: its point's, else the case's.
inline const ResourcesSpec& resources_of(const CaseSpec& spec, const PlannedRun& run) {
  return run.resources ? *run.resources : spec.resources;
}

// `--only KEY=VALUE[,VALUE...]` and `--where CONDITION` selections: a run is kept when, for every
// KEY named, its value equals one of the VALUEs given for that KEY (`repeat` selects repeat
// indices), and when the condition (the `exclude:` expression language: `layers >= 48 && method
// != "l2l"`, parameters and `repeat` as variables) holds for it.
class RunSelector {
 public:
  // Parses "KEY=VALUE" (a comma-separated list of values, or one value holding commas); throws
  // InputError for a malformed item or a KEY that is no parameter (with the nearest parameter
  // name suggested), and for a condition that does not parse.
  RunSelector(const std::vector<std::string>& items, const std::vector<std::string>& param_names,
              const std::string& where = "");
  ~RunSelector();
  RunSelector(RunSelector&&) noexcept;
  bool keeps(const ParamList& params, int repeat_index) const;
  // Whether a run whose parameter `name` has value v may be kept (the --only part; false lets a
  // sweep skip such points before making them).
  bool may_keep(const std::string& name, const Value& v) const;
  bool empty() const { return wanted_.empty() && where_.empty(); }

 private:
  struct Condition;
  std::vector<std::pair<std::string, std::vector<std::string>>> wanted_;
  std::string where_;
  std::unique_ptr<Condition> condition_;  // compiled per kinds of parameters seen
};

// The most runs a case may plan (points before `exclude:` × repeat): a larger sweep is refused
// before anything is expanded (docs/case-format.md).
inline constexpr unsigned long long kMaxPlannedRuns = 100'000'000;

// How plan_runs plans.
struct PlanOptions {
  const RunSelector* selector = nullptr;  // only the runs it keeps
  // Without keys (a dry run, counting), PlannedRun::key stays empty and params are set only
  // when a selector needs them.
  bool with_keys = true;
  // The case's launch setup; when null it is worked out here: once, or once per distinct point
  // size when resources.nodes or gpus_per_node vary per point, each run then carrying its
  // rendezvous env.
  const LaunchSetup* launch = nullptr;
};

// Streams the planned runs of a case in sweep order (repeats innermost). fn returns false to stop.
// Per-point resources are resolved and checked for every point. Throws InputError on a bad sweep,
// command template, resource value or launcher.
void plan_runs(const CaseSpec& spec, const PlanOptions& opts,
               const std::function<bool(const PlannedRun&)>& fn);
// Every run (of those the selector keeps), with keys, the launch worked out here.
inline void plan_runs(const CaseSpec& spec, const RunSelector* selector,
                      const std::function<bool(const PlannedRun&)>& fn) {
  plan_runs(spec, PlanOptions{selector}, fn);
}

// The store record of a planned run before it starts: what runs, where, by which aerun.
RunRecord new_run_record(const CaseSpec& spec, const PlannedRun& run, const std::string& host,
                         const std::string& git_commit);

// Parameter names of the case's points (sweep order), for selectors and outputs.
std::vector<std::string> planned_param_names(const CaseSpec& spec);

}  // namespace aerun
