// What a case asks of a batch scheduler for each of its jobs: the `resources:` section.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/util/error.hpp"
#include "aerun/util/value.hpp"

namespace aerun {

// A resource value written with `{param}` placeholders (`nodes: "{nodes}"`): resolved for each
// sweep point by resolve_resources().
struct ResourceTemplate {
  std::string name;  // the key as written: nodes, walltime, queue, constraint, ...
  std::string text;  // e.g. "{nodes}" or "{hours}h"
  SourceLoc loc;
};

// The `resources:` section of a case file. Unset values are left to the scheduler's defaults.
// Every text value was checked at load time to hold no whitespace, quote or shell
// metacharacter, so it can go into a `#SBATCH`/`#PBS` line as it is.
struct ResourcesSpec {
  std::optional<int> nodes;           // --nodes / select=N
  std::optional<int> gpus_per_node;   // --gpus-per-node / ngpus=
  std::optional<int> tasks_per_node;  // --ntasks-per-node / mpiprocs=
  std::optional<int> cpus_per_task;   // --cpus-per-task / ncpus = tasks * cpus
  double walltime_s = 0;              // --time / -l walltime (0 = from timeout:, else the queue's)
  SourceLoc walltime_loc;             // where walltime was written
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
  std::vector<ResourceTemplate> per_point;  // values resolved per sweep point
  SourceLoc loc;

  // Whether a per-point value sizes the launch line (nodes or gpus_per_node).
  bool sizes_launch() const;
};

// The resources of one sweep point: the case's, with every per-point value filled from the
// point's parameters and checked as a literal value is at load time. Throws InputError at the
// value's file:line with key `resources.<name>` and the point's parameters in the message.
ResourcesSpec resolve_resources(const ResourcesSpec& spec, const ParamList& point);

// A duration written with `{param}` placeholders (`stall: "{stall}"`), filled for one point.
// Throws InputError at loc/key naming the point for an unknown name or a bad duration.
double resolve_duration(const std::string& text, const SourceLoc& loc, const std::string& key,
                        const ParamList& point);

// One text per distinct set of resources: runs with the same signature can share a job array.
std::string resources_signature(const ResourcesSpec& r);

}  // namespace aerun
