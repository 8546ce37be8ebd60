// The built-in presets, one function per family and version (preset_<family>.cpp), and the small
// builder they share.
#pragma once

#include <initializer_list>
#include <string>

#include "aerun/logread/presets.hpp"

namespace aerun::detail {

Preset megatron_v1();
Preset megatron_v2();
Preset deepspeed_v1();
Preset stronghold_v1();
Preset ezpz_v1();
Preset hf_trainer_v1();
Preset startup_v1();
Preset hf_trainer_v2();
Preset torchtitan_v1();
Preset nanotron_v1();
Preset nanogpt_v1();
Preset lightning_v1();
Preset nemo_v1();
Preset maxtext_v1();
Preset composer_v1();
Preset torchtune_v1();
Preset mlperf_v1();
std::vector<StatusPattern> shared_status_v1();
std::vector<std::string> shared_restart_v1();

// Adds status patterns of one status to the base vocabulary (preset_status.cpp), in order.
struct StatusAdder {
  std::vector<StatusPattern>& to;
  SourceLoc loc;
  void operator()(const char* status, std::initializer_list<const char*> patterns) const {
    for (const char* p : patterns) to.push_back({p, status, loc});
  }
};
// The families of the base vocabulary, one file each (status_<family>.cpp), in the order they
// are listed (on one line, the first listed pattern wins).
void add_lsf_flux_pbs_status(const StatusAdder& add);
void add_divergence_status(const StatusAdder& add);
void add_accelerator_status(const StatusAdder& add);
void add_storage_status(const StatusAdder& add);
void add_collective_status(const StatusAdder& add);
void add_mpi_status(const StatusAdder& add);
void add_signal_status(const StatusAdder& add);

// The number every preset captures: a sign and an exponent are allowed everywhere ("loss scale:
// -1.0", "7.747273E+00"); parse_number turns the capture into a double or refuses it.
inline const std::string kNumber = R"(([-+]?[0-9.]+(?:[eE][+-]?[0-9]+)?))";

// The number of the presets of issue 27 on: kNumber, or with thousands separators ("5,756",
// torchtitan's tps; parse_number drops them).
inline const std::string kCount = R"(([-+]?[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?))";
// nanotron's human_format: 3 significant digits and a suffix ("8.79K", "1.6M", "85.8G", "480B").
inline const std::string kHuman = R"(([-+]?[0-9.]+(?:[eE][+-]?[0-9]+)?[KMGBTP]?))";

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
