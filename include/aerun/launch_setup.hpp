// A case's launch line and rendezvous environment, worked out once from cluster discovery before
// any run starts (the `launcher:` section; `{launch}` in the command).
#pragma once

#include <string>
#include <vector>

#include "aerun/case_spec.hpp"

namespace aerun {

struct LaunchSetup {
  std::string prefix;            // shell-ready launcher words ("" without a launcher)
  std::vector<std::string> env;  // "NAME=value": MASTER_ADDR, MASTER_PORT, WORLD_SIZE, ...
  std::string command_template;  // the case's command with the launch line in place
};

// Discovers the cluster and renders the launcher; throws InputError (bad hostfile, more ranks
// than slots, ...) before anything starts. The launch line
// replaces `{launch}` in the command; without `{launch}` it prefixes the whole command.
// With `point` (a sweep point's resolved resources), its nodes and gpus_per_node size the launch
// where the launcher leaves them unset. With `launcher` (a sweep point's resolved launcher,
// resolve_launcher), it is used instead of the case's.
LaunchSetup prepare_launch(const CaseSpec& spec, const ResourcesSpec* point = nullptr,
                           const LauncherSpec* launcher = nullptr);

}  // namespace aerun
