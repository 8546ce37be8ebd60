#include "aerun/run/launch_setup.hpp"

#include "aerun/cluster/cluster.hpp"
#include "aerun/cluster/gpu_discovery.hpp"
#include "aerun/launch/container_line.hpp"
#include "aerun/launch/launcher.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

LaunchSetup prepare_launch(const CaseSpec& spec, const ResourcesSpec* point,
                           const LauncherSpec* launcher) {
  LaunchSetup s;
  const bool gpus_auto = spec.container && spec.container->gpus == "auto";
  if (!spec.launcher) {
    if (gpus_auto)
      s.gpu_vendor =
          gpu_vendor_of(discover_gpus(std::nullopt, process_env(), system_tools()).source);
    return s;
  }
  LauncherSpec l = launcher ? *launcher : *spec.launcher;
  if (point && !l.nodes) l.nodes = point->nodes;
  if (point && !l.gpus_per_node) l.gpus_per_node = point->gpus_per_node;
  DiscoveryOptions o;
  o.hostfile = l.hostfile;
  o.gpus_per_host = l.gpus_per_node;
  ClusterInfo c;
  try {
    c = discover(o);
  } catch (const InputError& e) {
    // The case named the hostfile: its error names the case file and key too (issue 40: a
    // `hostfile: /dev/zero` is refused as not a regular file).
    if (l.hostfile.empty()) throw;
    throw InputError(l.loc, "launcher.hostfile", e.what());
  }
  s.prefix = render_launch(l, c);
  s.env = rendezvous_env(l, c);
  if (gpus_auto) s.gpu_vendor = gpu_vendor_of(c.gpu_source);
  return s;
}

}  // namespace aerun
