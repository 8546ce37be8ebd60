// discover(): scheduler, hosts, slots, GPUs and CPUs of the current job.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string_view>
#include <unordered_set>

#include "aerun/cluster/cluster.hpp"
#include "aerun/util/error.hpp"
#include "cluster/slurm_hostlist.hpp"

namespace aerun {

namespace {

Scheduler detect_scheduler(const DiscoveryOptions& o) {
  if (o.scheduler) return *o.scheduler;
  if (o.env("SLURM_JOB_ID")) return Scheduler::Slurm;
  if (o.env("PBS_JOBID")) return Scheduler::Pbs;
  if (o.env("LSB_JOBID")) return Scheduler::Lsf;
  return Scheduler::None;
}

std::optional<std::string> first_set(const EnvLookup& env, std::initializer_list<const char*> names,
                                     std::string* which = nullptr) {
  for (const char* n : names)
    if (auto v = env(n); v && !v->empty()) {
      if (which) *which = n;
      return v;
    }
  return std::nullopt;
}

// Hardware threads per core of this machine (cpu0's siblings), 1 when unknown.
int local_threads_per_core() {
  std::ifstream in("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list");
  std::string list;
  if (!(in >> list)) return 1;
  int n = 0;
  size_t pos = 0;
  while (pos <= list.size()) {  // "0,64" or "0-1"
    const size_t comma = std::min(list.find(',', pos), list.size());
    const std::string item = list.substr(pos, comma - pos);
    const size_t dash = item.find('-');
    if (dash == std::string::npos)
      n += 1;
    else
      n += std::stoi(item.substr(dash + 1)) - std::stoi(item.substr(0, dash)) + 1;
    pos = comma + 1;
  }
  return std::max(n, 1);
}

// Hosts in first-seen order, each once: linear (a million-host allocation takes well under a
// second; a search per host made it quadratic).
void add_unique_hosts(std::vector<std::string>& hosts, std::vector<std::string> more) {
  hosts.reserve(hosts.size() + more.size());  // no reallocation below: the views stay valid
  std::unordered_set<std::string_view> seen(hosts.begin(), hosts.end());
  seen.reserve(hosts.capacity());
  for (auto& h : more) {
    if (seen.count(h)) continue;
    hosts.push_back(std::move(h));
    seen.insert(hosts.back());
  }
}

void from_slurm(const DiscoveryOptions& o, ClusterInfo& c) {
  std::string var;
  const auto list = first_set(o.env, {"SLURM_JOB_NODELIST", "SLURM_NODELIST"}, &var);
  if (!list)
    throw InputError(SourceLoc{}, "scheduler",
                     "slurm: neither SLURM_JOB_NODELIST nor SLURM_NODELIST is set (run inside an "
                     "allocation, or give --hostfile)");
  add_unique_hosts(c.hosts, expand_hostlist(*list));
  c.hosts_source = var;
  if (const auto n = first_set(o.env, {"SLURM_JOB_NUM_NODES", "SLURM_NNODES"}))
    if (*n != std::to_string(c.hosts.size()))
      throw InputError(SourceLoc{}, "scheduler",
                       "slurm: " + var + " lists " + std::to_string(c.hosts.size()) +
                           " hosts but the job has " + *n + " nodes");
  // SLURM_TASKS_PER_NODE ("1(x2)" inside `salloc -N 2`) is the job's default task layout, not a
  // cap for a new step (srun may start more tasks when the CPUs allow): the CPUs the job holds on
  // each node are the slots.
  if (const auto t = first_set(o.env, {"SLURM_JOB_CPUS_PER_NODE"})) {
    auto slots = expand_tasks_per_node(*t);
    if (slots.size() == c.hosts.size()) c.slots = std::move(slots);
  }
}

void from_hostfile(const std::string& path, ClusterInfo& c) {
  const Hostfile hf = read_hostfile(path);
  c.hostfile = std::filesystem::absolute(path).lexically_normal().string();
  c.hostfile_format = hf.format;
  c.hosts_source = "hostfile";
  for (const auto& h : hf.hosts) {
    c.hosts.push_back(h.name);
    c.slots.push_back(h.slots);
  }
}

}  // namespace

ClusterInfo discover(const DiscoveryOptions& o) {
  ClusterInfo c;
  c.scheduler = detect_scheduler(o);
  if (c.scheduler == Scheduler::Pbs) c.job_id = o.env("PBS_JOBID").value_or("");
  if (c.scheduler == Scheduler::Slurm) c.job_id = o.env("SLURM_JOB_ID").value_or("");
  if (c.scheduler == Scheduler::Lsf) c.job_id = o.env("LSB_JOBID").value_or("");

  std::string hostfile = o.hostfile;
  if (hostfile.empty() && c.scheduler == Scheduler::Pbs) {
    hostfile = o.env("PBS_NODEFILE").value_or("");
    if (hostfile.empty())
      throw InputError(SourceLoc{}, "scheduler",
                       "pbs: PBS_NODEFILE is not set (run inside a job, or give --hostfile)");
  }
  // LSF: a host file of one line per slot (IBM LSF 10.1, "Environment variables set for job
  // execution": LSB_DJOB_HOSTFILE).
  if (hostfile.empty() && c.scheduler == Scheduler::Lsf)
    hostfile = o.env("LSB_DJOB_HOSTFILE").value_or("");
  if (!o.hosts.empty()) {
    add_unique_hosts(c.hosts, o.hosts);
    c.hosts_source = "hosts";
  } else if (!hostfile.empty()) {
    from_hostfile(hostfile, c);
  } else if (c.scheduler == Scheduler::Slurm) {
    from_slurm(o, c);
  } else {
    c.hosts = {"localhost"};
    c.hosts_source = "localhost";
  }

  const GpuCount g = discover_gpus(o.gpus_per_host, o.env, o.tools);
  c.gpus_per_host = g.per_host;
  c.gpu_source = g.source;

  if (o.cpus_per_host) {
    c.cpus_per_host = *o.cpus_per_host;
  } else if (const auto s = o.env("SLURM_CPUS_ON_NODE");
             s && !s->empty() && s->find_first_not_of("0123456789") == std::string::npos &&
             s->size() < 7) {
    c.cpus_per_host = std::stoi(*s);
  } else {
    c.cpus_per_host = static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  }
  c.threads_per_core = o.threads_per_core.value_or(local_threads_per_core());
  if (c.cpus_per_host < 1) c.cpus_per_host = 1;
  if (c.threads_per_core < 1) c.threads_per_core = 1;
  c.as_root = ::geteuid() == 0;
  return c;
}

}  // namespace aerun
