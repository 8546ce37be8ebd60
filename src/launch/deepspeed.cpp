// The DeepSpeed launcher: deepspeed [--hostfile H] --num_nodes N --num_gpus P
// --master_addr host0 --master_port port.
#include "launch/dialect_parts.hpp"

namespace aerun::detail {

std::vector<std::string> render_deepspeed(const LauncherSpec& spec, const ClusterInfo& c,
                                          const LaunchLayout& l) {
  if (!spec.cpu_bind.empty() && spec.cpu_bind != "none") unsupported(spec, "bind CPUs");
  if (!spec.gpu_bind.empty()) unsupported(spec, "bind GPUs (it sets LOCAL_RANK)");
  std::vector<std::string> argv{program_of(spec, "deepspeed")};
  argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
  if (host_arg(c, {HostfileFormat::OpenMpi}) == HostArg::Hostfile)
    argv.insert(argv.end(), {"--hostfile", c.hostfile});
  else if (l.nodes > 1)
    unsupported(spec, "run on " + std::to_string(l.nodes) +
                          " nodes without a hostfile of 'host slots=N' lines (DeepSpeed's format)");
  argv.insert(argv.end(), {"--num_nodes", std::to_string(l.nodes), "--num_gpus",
                           std::to_string(l.ranks_per_node), "--master_addr", l.hosts.front(),
                           "--master_port", std::to_string(spec.master_port)});
  return argv;
}

}  // namespace aerun::detail
