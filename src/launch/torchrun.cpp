// PyTorch elastic: torchrun --nnodes N --nproc-per-node P --rdzv-backend c10d
// --rdzv-endpoint host0:port (started once per node).
#include "launch/dialect_parts.hpp"

namespace aerun::detail {

std::vector<std::string> render_torchrun(const LauncherSpec& spec, const ClusterInfo&,
                                         const LaunchLayout& l) {
  if (!spec.cpu_bind.empty() && spec.cpu_bind != "none") unsupported(spec, "bind CPUs");
  if (!spec.gpu_bind.empty()) unsupported(spec, "bind GPUs (it sets LOCAL_RANK)");
  std::vector<std::string> argv{program_of(spec, "torchrun")};
  argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
  argv.insert(argv.end(),
              {"--nnodes", std::to_string(l.nodes), "--nproc-per-node",
               std::to_string(l.ranks_per_node), "--rdzv-backend", "c10d", "--rdzv-endpoint",
               l.hosts.front() + ":" + std::to_string(spec.master_port)});
  return argv;
}

}  // namespace aerun::detail
