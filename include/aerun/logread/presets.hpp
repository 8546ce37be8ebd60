// Built-in presets: named, versioned sets of metrics, status patterns and startup patterns for
// the log formats of common training stacks (docs/presets.md lists every metric and line).
#pragma once

#include <string>
#include <vector>

#include "aerun/logread/log_patterns.hpp"

namespace aerun {

// One version of a preset. Metric names are stable across versions and unit-normalised (e.g.
// iter_ms is always milliseconds); a change in what a name means makes a new version.
struct Preset {
  std::string name;  // e.g. "megatron"
  int version = 1;
  std::string summary;
  std::vector<MetricSpec> metrics;
  std::vector<StatusPattern> status;  // format-specific ones; the shared ones come on top
  StartupSpec startup;
  // End-of-training lines, "done/planned" counters, where a new attempt starts (resuming from a
  // checkpoint), and signatures: lines only this format prints (a banner, an argument dump, its
  // progress line), near a log's start, for `--preset auto` and unknown_format.
  CompletionSpec completion;
  // The few metrics `aerun runs` shows by default (of the many it extracts).
  std::vector<std::string> headline;
};

// Every preset version, in name then version order.
const std::vector<Preset>& builtin_presets();

// The base vocabulary every case has, whatever its presets (docs/presets.md lists each wording and
// its source): how schedulers, MPI launchers, collectives, accelerators, the OS and Python say a
// run died or diverged, in priority order.
const std::vector<StatusPattern>& shared_status_patterns();
// The lines where a launcher or scheduler starts a new attempt in the same log (a torchrun restart
// of its worker group), every case has them too.
const std::vector<std::string>& shared_restart_patterns();

// "megatron" (the latest version) or "megatron@1"; nullptr when there is no such preset.
const Preset* find_preset(const std::string& ref);

// "megatron@1, deepspeed@1, ..." (latest versions), for messages.
std::vector<std::string> preset_names();

}  // namespace aerun
