// A system profile (issue 41): one machine as a case is run on it — its scheduler, queues, launcher
// and container runtime, how its environment is set up, and how aerun knows it runs there. Read
// from a YAML file of the project's systems/ folder or of a folder the user names
// (docs/systems.md holds the schema).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aerun/util/error.hpp"

namespace aerun {

// A queue, partition or QOS of a system: what a node of it has and what a job may ask.
struct SystemQueue {
  std::string name;
  std::optional<long long> min_nodes, max_nodes;
  std::optional<double> walltime_s;  // the longest a job may ask
  std::optional<int> gpus_per_node;
  std::string gpu;  // "NVIDIA A100 40GB"
  std::optional<int> cpus_per_node;
  std::optional<double> memory_gb;
  std::string constraint;  // Slurm -C the partition needs (Perlmutter: gpu)
  std::string qos;         // Slurm --qos
  std::string partition;   // Slurm -p, when not the queue's name
  SourceLoc loc;
};

// How aerun knows it runs on a system: any one test that matches is enough.
struct SystemRecognition {
  std::vector<std::string> hostnames;                          // shell globs on the short host name
  std::vector<std::pair<std::string, std::string>> variables;  // variable, glob on its value
  std::string slurm_cluster;                                   // Slurm's ClusterName
  bool empty() const { return hostnames.empty() && variables.empty() && slurm_cluster.empty(); }
};

struct SystemProfile {
  std::string name;
  std::string title;
  std::string file;  // where it was read from
  std::vector<std::string> sources;
  SystemRecognition recognise;
  std::string scheduler = "local";  // local | pbs | slurm
  std::string launcher;             // a launcher kind (launcher_spec.hpp), "" for the scheduler's
  std::string container;            // a container runtime, "" for none documented
  std::string account;
  std::string queue;        // the default queue
  std::string filesystems;  // PBS -l filesystems=
  std::string scratch;
  std::vector<SystemQueue> queues;
  std::vector<std::string> modules;  // `module` arguments, in order
  std::vector<std::string> setup;    // shell lines after the modules
  std::vector<std::pair<std::string, std::string>> variables;
  const SystemQueue* find_queue(const std::string& q) const;
};

// The keys of a profile, top level and per queue (for messages and the docs' check).
const std::vector<std::string>& system_profile_keys();
const std::vector<std::string>& system_queue_keys();

// A profile from its YAML text; InputError naming file, line and key for every problem.
SystemProfile parse_system_profile(const std::string& yaml_text, const std::string& file);
// The same from a file (a regular file of at most 1 MiB).
SystemProfile load_system_profile(const std::string& path);

}  // namespace aerun
