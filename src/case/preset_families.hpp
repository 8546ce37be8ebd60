// The built-in presets, one function per family and version (preset_<family>.cpp), and the small
// builder they share.
#pragma once

#include <initializer_list>
#include <string>

#include "aerun/case/presets.hpp"

namespace aerun::detail {

Preset megatron_v1();
Preset deepspeed_v1();
Preset stronghold_v1();
Preset ezpz_v1();
Preset hf_trainer_v1();
Preset startup_v1();
std::vector<StatusPattern> shared_status_v1();

// The number every preset captures: a sign and an exponent are allowed everywhere ("loss scale:
// -1.0", "7.747273E+00"); parse_number turns the capture into a double or refuses it.
inline const std::string kNumber = R"(([-+]?[0-9.]+(?:[eE][+-]?[0-9]+)?))";

// A preset metric: name, first pattern, reduction, unit; alternatives are {pattern, scale}.
struct MetricDef {
  std::string name;
  std::string pattern;
  Reduction reduce = Reduction::Last;
  std::string unit;
  double scale = 1;
  std::initializer_list<MetricSpec::Alternative> alternatives = {};
  bool progress = false;
};

inline MetricSpec make_metric(const Preset& p, const MetricDef& d) {
  MetricSpec m;
  m.name = d.name;
  m.pattern = d.pattern;
  m.reduce = d.reduce;
  m.unit = d.unit;
  m.scale = d.scale;
  m.alternatives.assign(d.alternatives.begin(), d.alternatives.end());
  m.progress = d.progress;
  m.loc = SourceLoc{"preset " + p.name + "@" + std::to_string(p.version), 0, 0};
  return m;
}

inline void add_metrics(Preset& p, std::initializer_list<MetricDef> defs) {
  for (const auto& d : defs) p.metrics.push_back(make_metric(p, d));
}

}  // namespace aerun::detail
