// Cray PALS (Polaris, Aurora): mpiexec --envall -n N -ppn P --hostfile H --cpu-bind depth -d D.
#include "launch/dialect_parts.hpp"

namespace aerun::detail {

std::vector<std::string> render_pals(const LauncherSpec& spec, const ClusterInfo& c,
                                     const LaunchLayout& l) {
  std::vector<std::string> argv{program_of(spec, "mpiexec")};
  argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
  if (spec.env.empty() || forwards_all(spec))
    argv.push_back("--envall");
  else
    argv.insert(argv.end(), {"--envlist", join(spec.env, ",")});
  argv.insert(argv.end(),
              {"-n", std::to_string(l.ranks), "-ppn", std::to_string(l.ranks_per_node)});
  switch (host_arg(c, {HostfileFormat::Plain})) {
    case HostArg::Hostfile:
      argv.insert(argv.end(), {"--hostfile", c.hostfile});
      break;
    case HostArg::List:
      argv.insert(argv.end(), {"--hosts", join(l.hosts, ",")});
      break;
    case HostArg::Nothing:
      break;
  }
  const std::string bind = cpu_bind_or(spec, "depth");
  if (bind == "depth")
    argv.insert(argv.end(), {"--cpu-bind", "depth", "-d", std::to_string(l.depth)});
  else if (bind == "aurora")
    argv.insert(argv.end(), {"--cpu-bind", aurora_cpu_bind_list(l.ranks_per_node)});
  else if (bind == "core" || bind == "socket" || bind == "numa" || bind.rfind("list:", 0) == 0)
    argv.insert(argv.end(), {"--cpu-bind", bind});
  else if (bind != "none")
    unsupported(spec, "bind CPUs by '" + bind + "' (use depth, list:..., aurora, core, none)");
  if (!spec.gpu_bind.empty()) argv.insert(argv.end(), {"--gpu-bind", spec.gpu_bind});
  return argv;
}

}  // namespace aerun::detail
