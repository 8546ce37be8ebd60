// What a case (or `aerun env`'s flags) asks of the launcher: which one, how many ranks where,
// CPU/GPU binding, forwarded environment and extra arguments.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/util/error.hpp"
#include "aerun/util/value.hpp"

namespace aerun {

// The `launcher:` section of a case file. Unset optionals come from cluster discovery.
struct LauncherSpec {
  std::string kind = "none";            // a registered dialect: mpich, pals, openmpi, intelmpi,
                                        // srun, torchrun, deepspeed, none
  std::optional<int> ranks_per_node;    // nullopt = `gpus`: one rank per GPU of a host
  std::optional<int> nodes;             // default: every discovered host
  std::optional<int> ranks;             // default: nodes * ranks_per_node
  std::string cpu_bind;                 // "" = the dialect's default; none | core | socket |
                                        // depth | list:<cores>:<cores>... | aurora
  std::optional<int> depth;             // CPUs per rank for `depth` (default: see launchers.md)
  std::string gpu_bind;                 // passed to launchers that bind GPUs (pals, srun)
  std::vector<std::string> extra_args;  // placed right after the launcher's program name
  std::vector<std::string> env;         // variable names to forward; {"all"} forwards all
  std::optional<int> gpus_per_node;     // explicit GPU count (wins over discovery)
  std::string hostfile;                 // explicit hostfile (wins over PBS_NODEFILE)
  std::string mpi;                      // srun --mpi= value (pmi2 for MPICH, pmix for Open MPI)
  std::string program;                  // the launcher executable (default: the dialect's)
  int master_port = 29500;              // MASTER_PORT / torchrun's rendezvous port
  SourceLoc loc;
  // Counts written with `{param}` placeholders (`ranks: "{np}"`), resolved for each sweep point
  // by resolve_launcher(): name is ranks, ranks_per_node, nodes or depth.
  struct Template {
    std::string name, text;
    SourceLoc loc;
  };
  std::vector<Template> per_point;
};

// The launcher of one sweep point: its `{param}` counts filled from the point's parameters and
// checked as a literal count is. Throws InputError at the value's file:line, key
// `launcher.<name>`, naming the point.
LauncherSpec resolve_launcher(const LauncherSpec& spec, const ParamList& point);

// The counts that vary per point, as one text: launchers with the same one share a launch line
// (and a job array).
std::string launcher_signature(const LauncherSpec& l);

// `launcher: system`: the launcher of the system the case runs on (its profile's `launcher:`),
// made a dialect's name by apply_system before anything is planned.
inline constexpr const char* kSystemLauncher = "system";

// The names of the registered launcher dialects (launch_dialects() holds exactly these), for
// checking a case file without the launch module.
inline const std::vector<std::string>& launcher_kinds() {
  static const std::vector<std::string> kinds{"mpich", "pals",     "openmpi",   "intelmpi",
                                              "srun",  "torchrun", "deepspeed", "none"};
  return kinds;
}

// CPU binding words every dialect may be asked for (`list:...` too); each dialect accepts some.
inline const std::vector<std::string>& cpu_bind_words() {
  static const std::vector<std::string> words{"none", "core",  "socket", "hwthread",
                                              "numa", "depth", "aurora"};
  return words;
}

}  // namespace aerun
