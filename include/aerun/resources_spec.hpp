// What a case asks of a batch scheduler for each of its jobs: the `resources:` section.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/error.hpp"

namespace aerun {

// The `resources:` section of a case file. Unset values are left to the scheduler's defaults.
// Every text value was checked at load time to hold no whitespace, quote or shell
// metacharacter, so it can go into a `#SBATCH`/`#PBS` line as it is.
struct ResourcesSpec {
  std::optional<int> nodes;           // --nodes / select=N
  std::optional<int> gpus_per_node;   // --gpus-per-node / ngpus=
  std::optional<int> tasks_per_node;  // --ntasks-per-node / mpiprocs=
  std::optional<int> cpus_per_task;   // --cpus-per-task / ncpus = tasks * cpus
  double walltime_s = 0;              // --time / -l walltime (0 = the queue's default)
  std::string queue;                  // Slurm partition, PBS queue (`partition:` or `queue:`)
  std::string account;                // Slurm account, PBS project (`account:` or `project:`)
  std::string constraint;             // Slurm -C (e.g. v100-32g)
  std::string hint;                   // Slurm --hint (e.g. nomultithread)
  bool exclusive = false;             // Slurm --exclusive, PBS place=...:excl
  std::string filesystems;            // PBS -l filesystems= (e.g. home:eagle)
  std::string place;                  // PBS -l place= (e.g. scatter)
  std::vector<std::string> extra;     // further directive lines, verbatim after #SBATCH / #PBS
  std::string template_path;          // the user's own job-script template (absolute)
  int array_cap = 0;                  // array tasks running at once (%K; 0 = no cap)
  bool array = true;                  // submit a sweep as one job array when it fits
  SourceLoc loc;
};

}  // namespace aerun
