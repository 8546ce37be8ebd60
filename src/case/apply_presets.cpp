// How a case's `presets:` list becomes its metrics, status and startup.
#include "aerun/case/apply_presets.hpp"

#include <algorithm>

#include "aerun/case/case_loader.hpp"
#include "aerun/logread/presets.hpp"

namespace aerun {

namespace {

void take_if_empty(std::string& field, const std::string& from) {
  if (field.empty()) field = from;
}

}  // namespace

void apply_presets(CaseSpec& spec, const SourceLoc& loc) {
  auto add_unique = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
    for (const auto& x : from)
      if (std::find(to.begin(), to.end(), x) == to.end()) to.push_back(x);
  };
  auto add_status = [&](const std::vector<StatusPattern>& from) {
    for (const auto& sp : from)
      if (std::none_of(spec.status.begin(), spec.status.end(), [&](const StatusPattern& s) {
            return s.pattern == sp.pattern && s.status == sp.status;
          }))
        spec.status.push_back(sp);
  };
  if (spec.presets.empty()) {  // the base vocabulary, which every case has
    add_status(shared_status_patterns());
    add_unique(spec.completion.restart, shared_restart_patterns());
    return;
  }
  std::vector<const Preset*> used;
  for (const auto& ref : spec.presets) {
    const Preset* p = find_preset(ref);
    if (!p) {
      std::vector<std::string> names;
      for (const auto& q : builtin_presets()) names.push_back(q.name);
      const std::string near = nearest_key(ref.substr(0, ref.find('@')), names);
      std::string all;
      for (const auto& n : preset_names()) all += (all.empty() ? "" : ", ") + n;
      throw InputError(loc, "presets",
                       "unknown preset '" + ref + "'" +
                           (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                           "; presets: " + all);
    }
    if (std::find(used.begin(), used.end(), p) == used.end()) used.push_back(p);
  }
  // Metrics: presets' in order (first definition of a name wins), case ones replace in place.
  std::vector<MetricSpec> metrics;
  auto index_of = [&](const std::string& name) {
    return std::find_if(metrics.begin(), metrics.end(),
                        [&](const MetricSpec& m) { return m.name == name; });
  };
  for (const Preset* p : used)
    for (const auto& m : p->metrics)
      if (index_of(m.name) == metrics.end()) metrics.push_back(m);
  for (const auto& m : spec.metrics) {
    if (auto it = index_of(m.name); it != metrics.end())
      *it = m;
    else
      metrics.push_back(m);
  }
  spec.metrics = std::move(metrics);
  // Status: the case's first, then the presets' own, then the shared ones.
  for (const Preset* p : used) add_status(p->status);
  add_status(shared_status_patterns());
  // Completion: the case's patterns, then each preset's, each pattern once. Signatures: a case
  // whose every preset has some knows which formats its logs may be in.
  bool all_signed = true;
  for (const Preset* p : used) {
    add_unique(spec.completion.end, p->completion.end);
    add_unique(spec.completion.counter, p->completion.counter);
    add_unique(spec.completion.restart, p->completion.restart);
    all_signed = all_signed && !p->completion.signatures.empty();
  }
  add_unique(spec.completion.restart, shared_restart_patterns());
  const bool own_progress = std::any_of(
      spec.metrics.begin(), spec.metrics.end(),
      [](const MetricSpec& m) { return m.progress && !m.loc.file.starts_with("preset "); });
  if (all_signed && !own_progress) {
    std::string names;
    for (const Preset* p : used) {
      add_unique(spec.completion.signatures, p->completion.signatures);
      names += (names.empty() ? "" : ", ") + p->name;
    }
    spec.completion.formats = names;
  }
  // Startup: what the case sets wins, else the first preset that sets it.
  StartupSpec& st = spec.startup;
  for (const Preset* p : used) {
    const StartupSpec& ps = p->startup;
    if (st.loc.file.empty() && (!ps.first_step.empty() || !ps.job_start.empty()))
      st.loc = SourceLoc{"preset " + p->name + "@" + std::to_string(p->version), 0, 0};
    take_if_empty(st.first_step, ps.first_step);
    if (st.job_start.empty() && !ps.job_start.empty()) {
      st.job_start = ps.job_start;
      st.job_start_format = ps.job_start_format;
    }
    if (st.step_time.empty() && !ps.step_time.empty()) {
      st.step_time = ps.step_time;
      st.step_time_format = ps.step_time_format;
    }
  }
}

}  // namespace aerun
