// MPICH's Hydra: mpiexec -n N -ppn P --hostfile H [-bind-to core] [-envall | -genvlist A,B].
#include "launch/dialect_parts.hpp"

namespace aerun::detail {

std::vector<std::string> render_mpich(const LauncherSpec& spec, const ClusterInfo& c,
                                      const LaunchLayout& l) {
  std::vector<std::string> argv = hydra_start(spec, c, l, "--hostfile");
  const std::string bind = cpu_bind_or(spec, "none");
  if (bind == "core" || bind == "socket" || bind == "hwthread")
    argv.insert(argv.end(), {"-bind-to", bind});
  else if (bind != "none")
    unsupported(spec, "bind CPUs by '" + bind + "' (use none, core, socket or hwthread)");
  if (!spec.gpu_bind.empty()) unsupported(spec, "bind GPUs (read the local rank instead)");
  if (forwards_all(spec))
    argv.push_back("-envall");
  else if (!spec.env.empty())
    argv.insert(argv.end(), {"-genvlist", join(spec.env, ",")});
  return argv;
}

}  // namespace aerun::detail
