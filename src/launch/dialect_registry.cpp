// The registered launcher dialects and lookup by name.
#include <algorithm>

#include "launch/dialect_parts.hpp"

namespace aerun {

const std::vector<LaunchDialect>& launch_dialects() {
  static const std::vector<LaunchDialect> all{
      {"mpich",
       "mpiexec",
       "MPICH Hydra: mpiexec -n N -ppn P --hostfile H",
       {"PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE"},
       detail::render_mpich},
      {"pals",
       "mpiexec",
       "Cray PALS (Polaris, Aurora): mpiexec --envall -n N -ppn P --hostfile H "
       "--cpu-bind depth -d D",
       {"PMI_RANK", "PALS_LOCAL_RANKID", "PMI_SIZE"},
       detail::render_pals},
      {"openmpi",
       "mpirun",
       "Open MPI: mpirun -np N --hostfile H --map-by ppr:P:node -x VAR",
       {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE"},
       detail::render_openmpi},
      {"intelmpi",
       "mpiexec",
       "Intel MPI: mpiexec -n N -ppn P -f H",
       {"PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE"},
       detail::render_intelmpi},
      {"srun",
       "srun",
       "Slurm: srun -N nodes -n N --ntasks-per-node P --gpus-per-node G --mpi=X",
       {"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS"},
       detail::render_srun},
      {"torchrun",
       "torchrun",
       "PyTorch: torchrun --nnodes N --nproc-per-node P --rdzv-endpoint host:port (once per node)",
       {"RANK", "LOCAL_RANK", "WORLD_SIZE"},
       detail::render_torchrun},
      {"deepspeed",
       "deepspeed",
       "DeepSpeed: deepspeed --hostfile H --num_nodes N --num_gpus P",
       {"RANK", "LOCAL_RANK", "WORLD_SIZE"},
       detail::render_deepspeed},
      {"none",
       "",
       "no launcher: a single process",
       {"RANK", "LOCAL_RANK", "WORLD_SIZE"},
       detail::render_none},
  };
  return all;
}

const LaunchDialect& find_dialect(const std::string& kind) {
  const auto& all = launch_dialects();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const LaunchDialect& d) { return d.name == kind; });
  if (it != all.end()) return *it;
  std::vector<std::string> names;
  for (const auto& d : all) names.push_back(d.name);
  throw InputError(SourceLoc{}, "launcher",
                   "unknown launcher '" + kind + "'; use " + detail::join(names, ", "));
}

}  // namespace aerun
