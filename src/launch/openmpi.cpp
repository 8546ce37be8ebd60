// Open MPI: mpirun -np N --hostfile H --map-by ppr:P:node [-x VAR]... (as root:
// --allow-run-as-root).
#include "launch/dialect_parts.hpp"

namespace aerun::detail {

std::vector<std::string> render_openmpi(const LauncherSpec& spec, const ClusterInfo& c,
                                        const LaunchLayout& l) {
  std::vector<std::string> argv{program_of(spec, "mpirun")};
  if (c.as_root) argv.push_back("--allow-run-as-root");
  argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
  argv.insert(argv.end(), {"-np", std::to_string(l.ranks)});
  switch (host_arg(c, {HostfileFormat::Plain, HostfileFormat::OpenMpi})) {
    case HostArg::Hostfile:
      argv.insert(argv.end(), {"--hostfile", c.hostfile});
      break;
    case HostArg::List: {
      std::vector<std::string> with_slots;
      for (const auto& h : l.hosts)
        with_slots.push_back(h + ":" + std::to_string(l.ranks_per_node));
      argv.insert(argv.end(), {"--host", join(with_slots, ",")});
      break;
    }
    case HostArg::Nothing:
      break;
  }
  argv.insert(argv.end(), {"--map-by", "ppr:" + std::to_string(l.ranks_per_node) + ":node"});
  const std::string bind = cpu_bind_or(spec, "");
  if (bind == "core" || bind == "socket" || bind == "hwthread" || bind == "none")
    argv.insert(argv.end(), {"--bind-to", bind});
  else if (!bind.empty())
    unsupported(spec, "bind CPUs by '" + bind + "' (use none, core, socket or hwthread)");
  if (!spec.gpu_bind.empty()) unsupported(spec, "bind GPUs (read the local rank instead)");
  if (forwards_all(spec))
    unsupported(spec, "forward every variable: name them (env: [A, B]) for -x");
  for (const auto& v : spec.env) argv.insert(argv.end(), {"-x", v});
  return argv;
}

}  // namespace aerun::detail
