// A case's launch line and rendezvous environment, worked out once from cluster discovery before
// any run starts (the `launcher:` section; `{launch}` in the command).
#pragma once

#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

// The command's `{launch}` (CommandTemplate): with a launcher, the line replaces every `{launch}`,
// or prefixes a command that has none.
struct LaunchSetup {
  std::string prefix;      // shell-ready launcher words ("" without a launcher)
  EnvVars env;             // MASTER_ADDR, MASTER_PORT, WORLD_SIZE, ...
  std::string gpu_vendor;  // nvidia, rocm or "": a container's `gpus: auto` (container_line.hpp)
};

// Discovers the cluster and renders the launcher; throws InputError (bad hostfile, more ranks
// than slots, ...) before anything starts.
// With `point` (a sweep point's resolved resources), its nodes and gpus_per_node size the launch
// where the launcher leaves them unset. With `launcher` (a sweep point's resolved launcher,
// resolve_launcher), it is used instead of the case's.
LaunchSetup prepare_launch(const CaseSpec& spec, const ResourcesSpec* point = nullptr,
                           const LauncherSpec* launcher = nullptr);

}  // namespace aerun
