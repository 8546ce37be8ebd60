// The sections of a case file, each read into the CaseSpec by its own function, and the checks
// across sections that run once everything is read.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "case/yaml_reader.hpp"

namespace aerun::detail {

// Whether a list of names holds s.
inline bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// "a, b, c" for messages ("none" when empty).
inline std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) {
    if (!s.empty()) s += ", ";
    s += x;
  }
  return s.empty() ? "none" : s;
}

// Sweep: params, zip, include, exclude, derive (sweep_sections.cpp).
void read_params(const YamlReader& r, const Item& it, CaseSpec& spec);
void read_zip(const YamlReader& r, const Item& it, CaseSpec& spec);
void read_include(const YamlReader& r, const Item& it, CaseSpec& spec);
void read_exclude(const YamlReader& r, const Item& it, CaseSpec& spec);
void read_derive(const YamlReader& r, const Item& it, CaseSpec& spec);

// `search:` (search_section.cpp), read once the sweep sections are: checks the searched parameter
// and appends it to spec.params as the list of its candidate values.
void read_search(const YamlReader& r, const Item& it, CaseSpec& spec);

// Extraction: metrics, status, startup (extraction_sections.cpp).
void read_metrics(const YamlReader& r, const Item& it, CaseSpec& spec);
void read_status(const YamlReader& r, const Item& it, CaseSpec& spec);
void read_startup(const YamlReader& r, const Item& it, CaseSpec& spec);
void read_completion(const YamlReader& r, const Item& it, CaseSpec& spec);

// `retries: N | {count: N, on: [status, ...]}` and `rerun: [status, ...] | all`
// (failure_policy_section.cpp), read once presets are applied: statuses are checked against the
// judge's and the case's own.
void read_failure_policy(const YamlReader& r, const Item& it, CaseSpec& spec);

// The launcher section (launcher_section.cpp): `launcher: mpich` or a map of its keys.
void read_launcher(const YamlReader& r, const Item& it, CaseSpec& spec, const std::string& base);

// The container section (container_section.cpp): `container: {image, runtime, mounts, gpus,
// env, shell}`; check_container, once the sweep is read, checks its placeholders name parameters.
void read_container(const YamlReader& r, const Item& it, CaseSpec& spec, const std::string& base);
void check_container(const CaseSpec& spec);
// text with each `{name}` replaced by the point's value as written; InputError at loc, key, for a
// name the point lacks (resolve_resources.cpp).
std::string fill(const std::string& text, const SourceLoc& loc, const std::string& key,
                 const ParamList& point);

// The batch-scheduler keys (resources_section.cpp): `scheduler: slurm|pbs|local` and
// `resources:` (nodes, GPUs, walltime, queue, account, ... of each job).
void read_scheduler(const YamlReader& r, const Item& it, CaseSpec& spec);
void read_resources(const YamlReader& r, const Item& it, CaseSpec& spec, const std::string& base);
// One resource value from its text (resource_value.cpp): `k` the key's name (nodes, walltime,
// queue, ...), `key` how errors name it. Throws InputError for a value a directive cannot hold.
void set_resource(ResourcesSpec& s, const std::string& k, const std::string& text,
                  const SourceLoc& loc, const std::string& key);
// A whole number between min and max, else InputError.
int count(const std::string& text, const SourceLoc& loc, const std::string& key, long long min,
          long long max);

// Tables, read after everything else so rows, columns and references can be checked against
// parameters and metrics (table_section.cpp).
void read_tables(const YamlReader& r, const Item& it, CaseSpec& spec);
// Plots, read after the tables they draw (plot_section.cpp).
void read_plots(const YamlReader& r, const Item& it, CaseSpec& spec);

// Cross-section checks: parameter names defined once, include/exclude naming parameters, command
// placeholders naming parameters, metric names apart from parameters (case_checks.cpp).
void check_case(const YamlReader& r, CaseSpec& spec);

// `$VAR`, `${VAR}`, `${VAR:-default}` expanded from the environment (workdir; expand_env.cpp).
std::string expand_env(const std::string& s);

// Every parameter a run has, in order: params, zip members, derived.
std::vector<std::string> parameter_names(const CaseSpec& spec);

// Placeholders every command may use without a parameter.
inline const std::vector<std::string>& builtin_placeholders() {
  static const std::vector<std::string> names{"repeat", "case", "attempt", "rundir"};
  return names;
}

}  // namespace aerun::detail
