// A Slurm job's allocation from the variables Slurm sets in it (sbatch(1), srun(1), "OUTPUT
// ENVIRONMENT VARIABLES"): SLURM_JOB_ID, the compressed node list, the CPUs and GPUs per node.
#include <string_view>
#include <unordered_set>

#include "aerun/cluster/cluster.hpp"
#include "aerun/util/error.hpp"
#include "cluster/allocation_readers.hpp"
#include "cluster/slurm_hostlist.hpp"

namespace aerun {

namespace {

std::optional<std::string> first_set(const EnvLookup& env, std::initializer_list<const char*> names,
                                     std::string* which = nullptr) {
  for (const char* n : names)
    if (auto v = env(n); v && !v->empty()) {
      if (which) *which = n;
      return v;
    }
  return std::nullopt;
}

class SlurmAllocation final : public AllocationReader {
 public:
  Scheduler kind() const override { return Scheduler::Slurm; }
  std::optional<std::string> job_id(const EnvLookup& env) const override {
    return env("SLURM_JOB_ID");
  }
  bool read_hosts(const EnvLookup& env, ClusterInfo& c) const override {
    std::string var;
    const auto list = first_set(env, {"SLURM_JOB_NODELIST", "SLURM_NODELIST"}, &var);
    if (!list)
      throw InputError(SourceLoc{}, "scheduler",
                       "slurm: neither SLURM_JOB_NODELIST nor SLURM_NODELIST is set (run inside "
                       "an allocation, or give --hostfile)");
    add_unique_hosts(c.hosts, expand_hostlist(*list));
    c.hosts_source = var;
    if (const auto n = first_set(env, {"SLURM_JOB_NUM_NODES", "SLURM_NNODES"}))
      if (*n != std::to_string(c.hosts.size()))
        throw InputError(SourceLoc{}, "scheduler",
                         "slurm: " + var + " lists " + std::to_string(c.hosts.size()) +
                             " hosts but the job has " + *n + " nodes");
    // SLURM_TASKS_PER_NODE ("1(x2)" inside `salloc -N 2`) is the job's default task layout, not
    // a cap for a new step (srun may start more tasks when the CPUs allow): the CPUs the job
    // holds on each node are the slots.
    if (const auto t = first_set(env, {"SLURM_JOB_CPUS_PER_NODE"})) {
      auto slots = expand_tasks_per_node(*t);
      if (slots.size() == c.hosts.size()) c.slots = std::move(slots);
    }
    return true;
  }
  std::optional<Gpus> gpus_per_node(const EnvLookup& env, bool) const override {
    for (const char* var : {"SLURM_GPUS_ON_NODE", "SLURM_GPUS_PER_NODE"})  // "4" or "a100:4"
      if (const auto v = env(var))
        if (const int n = positive_count(*v); n > 0) return Gpus{n, var};
    return std::nullopt;
  }
  std::optional<int> cpus_per_node(const EnvLookup& env) const override {
    const auto s = env("SLURM_CPUS_ON_NODE");
    if (s && !s->empty() && s->find_first_not_of("0123456789") == std::string::npos &&
        s->size() < 7)
      return std::stoi(*s);
    return std::nullopt;
  }
};

}  // namespace

const AllocationReader& slurm_allocation() {
  static const SlurmAllocation reader;
  return reader;
}

}  // namespace aerun
