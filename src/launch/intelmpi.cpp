// Intel MPI (Hydra): mpiexec -n N -ppn P -f H [-genvall | -genvlist A,B] [-genv I_MPI_PIN_DOMAIN
// x].
#include "launch/dialect_parts.hpp"

namespace aerun::detail {

std::vector<std::string> render_intelmpi(const LauncherSpec& spec, const ClusterInfo& c,
                                         const LaunchLayout& l) {
  std::vector<std::string> argv = hydra_start(spec, c, l, "-f");
  if (forwards_all(spec))
    argv.push_back("-genvall");
  else if (!spec.env.empty())
    argv.insert(argv.end(), {"-genvlist", join(spec.env, ",")});
  const std::string bind = cpu_bind_or(spec, "");
  if (bind == "core" || bind == "socket")
    argv.insert(argv.end(), {"-genv", "I_MPI_PIN_DOMAIN", bind});
  else if (bind == "depth")
    argv.insert(argv.end(), {"-genv", "I_MPI_PIN_DOMAIN", std::to_string(l.depth)});
  else if (bind == "none")
    argv.insert(argv.end(), {"-genv", "I_MPI_PIN", "0"});
  else if (!bind.empty())
    unsupported(spec, "bind CPUs by '" + bind + "' (use none, core, socket or depth)");
  if (!spec.gpu_bind.empty()) unsupported(spec, "bind GPUs (read the local rank instead)");
  return argv;
}

}  // namespace aerun::detail
