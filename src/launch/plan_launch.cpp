// plan_launch(): ranks, ranks per node and hosts, checked before anything starts.
#include <fmt/format.h>

#include <algorithm>

#include "launch/dialect_parts.hpp"

namespace aerun {

namespace {

[[noreturn]] void fail(const LauncherSpec& spec, const std::string& message) {
  throw InputError(spec.loc, "launcher", message);
}

// Slots the hostfile or Slurm gives the first `nodes` hosts, when they say (0 = unknown).
int known_slots(const ClusterInfo& c, int nodes) {
  const bool written = (!c.hostfile.empty() && c.hostfile_format != HostfileFormat::Plain) ||
                       (c.hostfile.empty() && c.scheduler == Scheduler::Slurm);
  if (!written || c.slots.size() < static_cast<size_t>(nodes)) return 0;
  int sum = 0;
  for (int i = 0; i < nodes; ++i) sum += c.slots[i];
  return sum;
}

}  // namespace

LaunchLayout plan_launch(const LauncherSpec& spec, const ClusterInfo& c) {
  find_dialect(spec.kind);
  LaunchLayout l;
  if (c.hosts.empty()) fail(spec, "no host to launch on");
  if (spec.kind == "none") {
    if (spec.ranks.value_or(1) != 1 || spec.nodes.value_or(1) != 1)
      fail(spec, "launcher 'none' runs a single process; choose a launcher for more ranks");
    l.hosts = {c.hosts.front()};
    l.depth = std::max(1, c.cpus_per_host / c.threads_per_core);
    return l;
  }
  const int gpus = spec.gpus_per_node.value_or(c.gpus_per_host);
  int per_node = 0;
  if (spec.ranks_per_node) {
    per_node = *spec.ranks_per_node;
    if (per_node < 1) fail(spec, "ranks_per_node must be at least 1");
  } else if (gpus <= 0) {
    // A CPU-only node (or job): one rank per node, said so; the user may ask for more.
    per_node = 1;
    l.note = fmt::format(
        "no GPU found (source: {}): one rank per node; set --ranks-per-node (aerun env) or "
        "launcher.ranks_per_node (a case) for more",
        spec.gpus_per_node ? "explicit" : c.gpu_source);
  } else {
    per_node = gpus;
  }
  const int nhosts = c.nhosts();
  int nodes = nhosts;
  if (spec.nodes) {
    nodes = *spec.nodes;
    if (nodes < 1) fail(spec, "nodes must be at least 1");
  } else if (spec.ranks) {
    nodes = std::min(nhosts, std::max(1, (*spec.ranks + per_node - 1) / per_node));
  }
  if (nodes > nhosts)
    fail(spec, fmt::format("asks for {} nodes but only {} host{} found ({})", nodes, nhosts,
                           nhosts == 1 ? " was" : "s were", c.hosts_source));
  const int slots = nodes * per_node;
  const int ranks = spec.ranks.value_or(slots);
  if (ranks < 1) fail(spec, "ranks must be at least 1");
  if (ranks > slots)
    fail(spec, fmt::format("{} ranks are more than the {} slots ({} node{} x {} ranks per node)",
                           ranks, slots, nodes, nodes == 1 ? "" : "s", per_node));
  if (ranks % nodes != 0)
    fail(spec, fmt::format("{} ranks cannot be spread evenly over {} nodes", ranks, nodes));
  if (const int known = known_slots(c, nodes); known > 0 && ranks > known)
    fail(spec,
         fmt::format("{} ranks are more than the {} slots the {} gives {} node{}", ranks, known,
                     c.hostfile.empty() ? "allocation" : "hostfile", nodes, nodes == 1 ? "" : "s"));
  l.nodes = nodes;
  l.ranks = ranks;
  l.ranks_per_node = ranks / nodes;
  l.hosts.assign(c.hosts.begin(), c.hosts.begin() + nodes);
  if (spec.depth) {
    if (*spec.depth < 1) fail(spec, "depth must be at least 1");
    l.depth = *spec.depth;
  } else {
    l.depth = std::max(1, c.cpus_per_host / c.threads_per_core / l.ranks_per_node);
  }
  return l;
}

}  // namespace aerun
