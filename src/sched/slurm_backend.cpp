// Slurm as a backend: #SBATCH directives, templates/slurm.sbatch, SLURM_* variables, srun job
// steps inside an allocation, and its client (slurm_client.cpp). Options as sbatch(1) and srun(1)
// document them (https://slurm.schedmd.com/sbatch.html, srun.html).
#include <fmt/format.h>

#include "sched/scheduler_backends.hpp"
#include "sched/slurm_client.hpp"

namespace aerun {

namespace {

class SlurmBackend final : public SchedulerBackend {
 public:
  Scheduler kind() const override { return Scheduler::Slurm; }
  std::string_view name() const override { return "slurm"; }
  std::string_view script_extension() const override { return "sbatch"; }
  std::string_view template_file() const override { return "slurm.sbatch"; }

  std::string directives(const ResourcesSpec& r, const JobArray& array) const override {
    std::string out;
    auto line = [&out](const std::string& s) { out += "#SBATCH " + s + "\n"; };
    if (r.nodes) line(fmt::format("--nodes={}", *r.nodes));
    if (r.tasks_per_node) line(fmt::format("--ntasks-per-node={}", *r.tasks_per_node));
    if (r.cpus_per_task) line(fmt::format("--cpus-per-task={}", *r.cpus_per_task));
    if (r.gpus_per_node) line(fmt::format("--gpus-per-node={}", *r.gpus_per_node));
    if (r.walltime_s > 0) line("--time=" + format_walltime(r.walltime_s));
    if (!r.queue.empty()) line("--partition=" + r.queue);
    if (!r.account.empty()) line("--account=" + r.account);
    if (!r.constraint.empty()) line("--constraint=" + r.constraint);
    if (!r.hint.empty()) line("--hint=" + r.hint);
    if (r.exclusive) line("--exclusive");
    if (array.tasks > 1)
      line(fmt::format("--array=0-{}{}", array.tasks - 1,
                       array.cap > 0 ? fmt::format("%{}", array.cap) : ""));
    for (const auto& e : r.extra) line(e);
    return out;
  }

  std::string_view task_index_expression() const override { return "${SLURM_ARRAY_TASK_ID:-0}"; }
  std::string_view job_id_expression() const override { return "\"${SLURM_JOB_ID:-}\""; }
  std::string_view by_hand() const override { return "SLURM_ARRAY_TASK_ID=N bash THIS_SCRIPT"; }
  std::string_view allocation_variable() const override { return "SLURM_JOB_ID"; }
  std::string_view array_limit_setting() const override { return "MaxArraySize"; }

  // One task of the point's size, on CPUs no other step holds (`--exact`, Slurm 21.08+).
  std::optional<std::string> job_step(const ResourcesSpec& r) const override {
    std::string step = "srun --exact --nodes=" + std::to_string(r.nodes.value_or(1)) +
                       " --ntasks-per-node=" + std::to_string(r.tasks_per_node.value_or(1));
    if (r.cpus_per_task) step += " --cpus-per-task=" + std::to_string(*r.cpus_per_task);
    if (r.gpus_per_node) step += " --gpus-per-node=" + std::to_string(*r.gpus_per_node);
    return step;
  }

  std::unique_ptr<SchedulerClient> client() const override {
    return std::make_unique<SlurmClient>();
  }
};

}  // namespace

const SchedulerBackend& slurm_backend() {
  static const SlurmBackend b;
  return b;
}

}  // namespace aerun
