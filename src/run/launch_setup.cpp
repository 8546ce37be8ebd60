#include "aerun/run/launch_setup.hpp"

#include "aerun/cluster/cluster.hpp"
#include "aerun/launch/launcher.hpp"

namespace aerun {

LaunchSetup prepare_launch(const CaseSpec& spec, const ResourcesSpec* point,
                           const LauncherSpec* launcher) {
  LaunchSetup s;
  if (!spec.launcher) return s;
  LauncherSpec l = launcher ? *launcher : *spec.launcher;
  if (point && !l.nodes) l.nodes = point->nodes;
  if (point && !l.gpus_per_node) l.gpus_per_node = point->gpus_per_node;
  DiscoveryOptions o;
  o.hostfile = l.hostfile;
  o.gpus_per_host = l.gpus_per_node;
  const ClusterInfo c = discover(o);
  s.prefix = render_launch(l, c);
  s.env = rendezvous_env(l, c);
  return s;
}

}  // namespace aerun
