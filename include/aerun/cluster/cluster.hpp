// Cluster discovery: which scheduler runs this job, on which hosts, with how many GPUs and CPUs
// per host (what `aerun env` prints and launchers are rendered from).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/cluster/gpu_discovery.hpp"
#include "aerun/cluster/hostfile.hpp"
#include "aerun/cluster/system_probe.hpp"
#include "aerun/util/scheduler_kind.hpp"

namespace aerun {

// What discovery may use, and what the user fixed explicitly (explicit values win).
struct DiscoveryOptions {
  std::optional<Scheduler> scheduler;   // else: PBS_JOBID -> pbs, SLURM_JOB_ID -> slurm, else none
  std::string hostfile;                 // else: PBS_NODEFILE (pbs), else none
  std::vector<std::string> hosts;       // an explicit host list (wins over the hostfile's hosts)
  std::optional<int> gpus_per_host;     // the case's explicit value (0 allowed)
  std::optional<int> cpus_per_host;     // logical CPUs per host; else SLURM_CPUS_ON_NODE or nproc
  std::optional<int> threads_per_core;  // else this machine's SMT width (sysfs), else 1
  EnvLookup env = process_env();
  ToolRunner tools = system_tools();
};

// One job's view of the cluster.
struct ClusterInfo {
  Scheduler scheduler = Scheduler::None;
  std::string job_id;              // PBS_JOBID / SLURM_JOB_ID ("" without a scheduler)
  std::vector<std::string> hosts;  // unique, in order; never empty ("localhost" when local)
  std::vector<int> slots;          // per host, from the hostfile or SLURM_TASKS_PER_NODE
                                   // (empty when nothing says)
  std::string hosts_source;        // "hostfile", "hosts", "SLURM_JOB_NODELIST", "localhost"
  std::string hostfile;            // the hostfile's path ("" when the hosts came otherwise)
  HostfileFormat hostfile_format = HostfileFormat::Plain;
  int gpus_per_host = 0;
  std::string gpu_source = "none";
  int cpus_per_host = 1;     // logical CPUs (hardware threads) per host
  int threads_per_core = 1;  // hardware threads per core (SMT)
  bool as_root = false;      // aerun runs as root (Open MPI then needs a flag)

  int nhosts() const { return static_cast<int>(hosts.size()); }
  int ngpus() const { return nhosts() * gpus_per_host; }
};

// Finds the scheduler, hosts, GPUs and CPUs. Throws InputError for a hostfile that cannot be
// read and for a Slurm host list Slurm would reject.
ClusterInfo discover(const DiscoveryOptions& opts);

}  // namespace aerun
