// Launcher dialects (mpich, pals, openmpi, intelmpi, srun, torchrun, deepspeed, none): each a
// small registered piece that spells ranks, ranks per node, hostfile, CPU binding, environment
// forwarding and GPU binding its own way. docs/launchers.md describes every one.
#pragma once

#include <string>
#include <vector>

#include "aerun/case/launcher_spec.hpp"
#include "aerun/cluster/cluster.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

// How many ranks run where, after checking the spec against the cluster.
struct LaunchLayout {
  int nodes = 1;
  int ranks_per_node = 1;
  int ranks = 1;
  int depth = 1;                   // CPUs per rank (for depth binding)
  std::vector<std::string> hosts;  // the first `nodes` hosts
  std::string note;                // a choice made for the user (no GPU: one rank per node)
};

// Per-rank variables a dialect's launcher sets (names, not values).
struct RankVariables {
  std::string rank;        // e.g. PMI_RANK
  std::string local_rank;  // e.g. MPI_LOCALRANKID
  std::string size;        // e.g. PMI_SIZE
};

// One launcher dialect: its name, what it is for, and how it renders.
struct LaunchDialect {
  std::string name;     // the `launcher.kind` value
  std::string program;  // default executable, e.g. "mpiexec.hydra"
  std::string summary;  // one line for `aerun env --help` and errors
  RankVariables vars;
  // The argv prefix (program first) that starts `layout` ranks; throws InputError for a spec
  // the dialect cannot express (an unsupported binding, an unreadable hostfile format).
  std::vector<std::string> (*render)(const LauncherSpec&, const ClusterInfo&, const LaunchLayout&);
};

// Every registered dialect, in documentation order.
const std::vector<LaunchDialect>& launch_dialects();
// The dialect called `kind`; InputError (with "did you mean") for an unknown one.
const LaunchDialect& find_dialect(const std::string& kind);

// Ranks, ranks per node, nodes and hosts from the spec, else from discovery, checked: zero GPUs
// with ranks_per_node `gpus`, more nodes than hosts, more ranks than slots, ranks not divisible
// by nodes are InputErrors (at spec.loc, key "launcher") before anything starts.
LaunchLayout plan_launch(const LauncherSpec& spec, const ClusterInfo& cluster);

// The launcher's argv prefix (empty for `none`).
std::vector<std::string> launch_argv(const LauncherSpec& spec, const ClusterInfo& cluster);

// The same, shell-quoted and joined by spaces: ready to put before a program in a shell command
// ("" for `none`).
std::string render_launch(const LauncherSpec& spec, const ClusterInfo& cluster);

// "NAME=value" entries for the launched program: MASTER_ADDR (first host), MASTER_PORT,
// WORLD_SIZE, NNODES, and the names of the launcher's per-rank variables as AERUN_RANK_VAR,
// AERUN_LOCAL_RANK_VAR, AERUN_SIZE_VAR (for `none`, RANK=0 LOCAL_RANK=0 too).
EnvVars rendezvous_env(const LauncherSpec& spec, const ClusterInfo& cluster);

// The cores of each rank for Aurora (2 sockets x 52 cores; cores 0 and 52 kept for the OS):
// "list:1-8:9-16:...:93-100" for 12 ranks per node.
std::string aurora_cpu_bind_list(int ranks_per_node);

}  // namespace aerun
