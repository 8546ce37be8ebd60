// discover(): scheduler, hosts, slots, GPUs and CPUs of the current job (each scheduler's own
// variables read by its AllocationReader).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string_view>
#include <unordered_set>

#include "aerun/cluster/cluster.hpp"
#include "aerun/util/error.hpp"
#include "cluster/allocation_readers.hpp"

namespace aerun {

namespace {

// The scheduler whose job this process runs in: the one given, else the first whose variables
// say so (allocation_readers(): Slurm, PBS, LSF).
const AllocationReader* detect_allocation(const DiscoveryOptions& o) {
  if (o.scheduler) return allocation_reader(*o.scheduler);
  for (const AllocationReader* r : allocation_readers())
    if (r->job_id(o.env)) return r;
  return nullptr;
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

ClusterInfo discover(const DiscoveryOptions& o) {
  ClusterInfo c;
  const AllocationReader* job = detect_allocation(o);
  c.scheduler = o.scheduler ? *o.scheduler : job ? job->kind() : Scheduler::None;
  if (job) c.job_id = job->job_id(o.env).value_or("");

  std::string hostfile = o.hostfile;
  if (hostfile.empty() && o.hosts.empty() && job) hostfile = job->hostfile(o.env);
  if (!o.hosts.empty()) {
    add_unique_hosts(c.hosts, o.hosts);
    c.hosts_source = "hosts";
  } else if (!hostfile.empty()) {
    from_hostfile(hostfile, c);
  } else if (!job || !job->read_hosts(o.env, c)) {
    c.hosts = {"localhost"};
    c.hosts_source = "localhost";
  }

  const GpuCount g = discover_gpus(o.gpus_per_host, o.env, o.tools);
  c.gpus_per_host = g.per_host;
  c.gpu_source = g.source;

  if (o.cpus_per_host) {
    c.cpus_per_host = *o.cpus_per_host;
  } else if (const auto n = job ? job->cpus_per_node(o.env) : std::nullopt) {
    c.cpus_per_host = *n;
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
