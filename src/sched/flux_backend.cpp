// Flux as a backend: `#flux:` directives (RFC 36; flux-core doc/man1/flux-batch.rst and
// common/job-param-*.rst: -N nodes, -n slots, -c cores and -g GPUs per slot, -x, -t with an FSD
// duration, -q, --setattr=system.bank, --job-name), templates/flux.sh, and its client
// (flux_client.cpp). `flux batch` has no arrays: a sweep goes out as a job per run. Every
// directive line uses the one sentinel `#flux:` and they stand together at the top of the script,
// as flux batch requires (a later `flux:` line is refused as an orphan).
#include <fmt/format.h>

#include <cmath>

#include "sched/flux_client.hpp"
#include "sched/scheduler_backends.hpp"

namespace aerun {

namespace {

class FluxBackend final : public SchedulerBackend {
 public:
  Scheduler kind() const override { return Scheduler::Flux; }
  std::string_view name() const override { return "flux"; }
  std::string_view script_extension() const override { return "flux"; }
  std::string_view template_file() const override { return "flux.sh"; }
  bool has_arrays() const override { return false; }

  std::string directives(const ResourcesSpec& r, const JobArray& array) const override {
    if (!r.constraint.empty())
      throw InputError(r.loc, "resources",
                       "constraint is a Slurm option; under Flux ask for it through "
                       "resources.extra (e.g. '--requires=host:node[1-4]')");
    if (!r.hint.empty())
      throw InputError(r.loc, "resources",
                       "hint is a Slurm option (srun/sbatch --hint); Flux has none");
    std::string out;
    auto line = [&out](const std::string& s) { out += "#flux: " + s + "\n"; };
    line("--job-name=" + array.job_name);
    // One slot per node: its cores are the node's tasks x their CPUs, its GPUs the node's.
    const bool sized = r.nodes || r.tasks_per_node || r.cpus_per_task || r.gpus_per_node;
    if (sized) {
      const int nodes = r.nodes.value_or(1);
      line(fmt::format("-N {}", nodes));
      line(fmt::format("-n {}", nodes));
      if (r.tasks_per_node || r.cpus_per_task)
        line(fmt::format("-c {}", r.tasks_per_node.value_or(1) * r.cpus_per_task.value_or(1)));
      if (r.gpus_per_node) line(fmt::format("-g {}", *r.gpus_per_node));
    } else {
      line("-n 1");  // flux batch needs a slot count or a node count
    }
    // -t: a Flux standard duration (RFC 23); whole seconds, rounded up.
    if (r.walltime_s > 0)
      line(fmt::format("-t {}s", static_cast<long long>(std::ceil(r.walltime_s))));
    if (!r.queue.empty()) line("-q " + r.queue);
    if (!r.account.empty()) line("--setattr=system.bank=" + r.account);
    if (r.exclusive && sized) line("-x");
    for (const auto& e : r.extra) line(e);
    return out;
  }

  // One run per job: the task is always 0.
  std::string_view task_index_expression() const override { return "0"; }
  // FLUX_JOB_ID is not set in a batch script; FLUX_ENCLOSING_ID is (flux-core 0.71+).
  std::string_view job_id_expression() const override { return "\"${FLUX_ENCLOSING_ID:-}\""; }
  std::string_view by_hand() const override { return "bash THIS_SCRIPT"; }
  std::string_view allocation_variable() const override { return "FLUX_ENCLOSING_ID"; }
  std::string_view array_limit_setting() const override { return "none: Flux has no arrays"; }

  std::unique_ptr<SchedulerClient> client() const override {
    return std::make_unique<FluxClient>();
  }
};

}  // namespace

const SchedulerBackend& flux_backend() {
  static const FluxBackend b;
  return b;
}

}  // namespace aerun
