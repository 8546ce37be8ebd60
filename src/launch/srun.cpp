// Slurm: srun -N nodes -n ranks --ntasks-per-node P --gpus-per-node G [--mpi=plugin].
#include "launch/dialect_parts.hpp"

namespace aerun::detail {

namespace {

// `mpi:` as an MPI flavour (mpich, openmpi, cray, intelmpi) or a Slurm MPI plugin name.
std::string mpi_plugin(const std::string& mpi) {
  if (mpi == "mpich" || mpi == "intelmpi") return "pmi2";
  if (mpi == "openmpi") return "pmix";
  if (mpi == "cray") return "cray_shasta";
  return mpi;
}

}  // namespace

std::vector<std::string> render_srun(const LauncherSpec& spec, const ClusterInfo& c,
                                     const LaunchLayout& l) {
  std::vector<std::string> argv{program_of(spec, "srun")};
  argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
  argv.insert(argv.end(), {"-N", std::to_string(l.nodes), "-n", std::to_string(l.ranks),
                           "--ntasks-per-node", std::to_string(l.ranks_per_node)});
  const int gpus = spec.gpus_per_node.value_or(c.gpus_per_host);
  if (gpus > 0) argv.insert(argv.end(), {"--gpus-per-node", std::to_string(gpus)});
  if (host_arg(c, {}) == HostArg::List) argv.push_back("--nodelist=" + join(l.hosts, ","));
  if (!spec.mpi.empty()) argv.push_back("--mpi=" + mpi_plugin(spec.mpi));
  const std::string bind = cpu_bind_or(spec, "");
  // srun counts CPUs as hardware threads when the node has several per core (srun(1),
  // --cpus-per-task; NERSC's Perlmutter docs: "-c 2 x floor(64 / tasks per node)"): depth is in
  // cores, so a rank asks for depth x threads per core CPUs, bound to its cores.
  if (bind == "depth")
    argv.insert(argv.end(), {"--cpus-per-task", std::to_string(l.depth * c.threads_per_core),
                             "--cpu-bind=cores"});
  else if (bind == "core" || bind == "socket")
    argv.push_back("--cpu-bind=" + bind + "s");
  else if (bind == "none")
    argv.push_back("--cpu-bind=none");
  else if (!bind.empty())
    unsupported(spec, "bind CPUs by '" + bind + "' (use none, core, socket or depth)");
  if (!spec.gpu_bind.empty()) argv.push_back("--gpu-bind=" + spec.gpu_bind);
  if (!spec.env.empty() && !forwards_all(spec))
    argv.push_back("--export=ALL," + join(spec.env, ","));
  return argv;
}

}  // namespace aerun::detail
