// PBS Pro / OpenPBS as a backend: #PBS directives (a select statement), templates/pbs.sh, PBS_*
// variables, and its client (pbs_client.cpp). Options as the PBS Professional Reference Guide
// documents qsub (select, place, walltime, filesystems as on ALCF's Polaris and Aurora, -J arrays).
// No PBS exists here: its client is tested on a stand-in that answers as qsub/qstat do.
#include <fmt/format.h>

#include <cctype>

#include "sched/pbs_client.hpp"
#include "sched/scheduler_backends.hpp"

namespace aerun {

namespace {

class PbsBackend final : public SchedulerBackend {
 public:
  Scheduler kind() const override { return Scheduler::Pbs; }
  std::string_view name() const override { return "pbs"; }
  std::string_view script_extension() const override { return "pbs"; }
  std::string_view template_file() const override { return "pbs.sh"; }

  std::string directives(const ResourcesSpec& r, const JobArray& array) const override {
    if (!r.constraint.empty())
      throw InputError(r.loc, "resources",
                       "constraint is a Slurm option; under PBS ask for it in the select "
                       "statement through resources.extra (e.g. '-l select=1:gpu_model=v100')");
    if (!r.hint.empty())
      throw InputError(r.loc, "resources",
                       "hint is a Slurm option (srun/sbatch --hint); PBS has none");
    std::string out;
    auto line = [&out](const std::string& s) { out += "#PBS " + s + "\n"; };
    if (r.nodes || r.tasks_per_node || r.cpus_per_task || r.gpus_per_node) {
      std::string chunk = fmt::format("select={}", r.nodes.value_or(1));
      if (r.cpus_per_task || r.tasks_per_node)
        chunk +=
            fmt::format(":ncpus={}", r.tasks_per_node.value_or(1) * r.cpus_per_task.value_or(1));
      if (r.gpus_per_node) chunk += fmt::format(":ngpus={}", *r.gpus_per_node);
      if (r.tasks_per_node) chunk += fmt::format(":mpiprocs={}", *r.tasks_per_node);
      line("-l " + chunk);
    }
    if (r.walltime_s > 0) line("-l walltime=" + format_walltime(r.walltime_s));
    std::string place = r.place;
    if (r.exclusive) place += place.empty() ? "excl" : ":excl";
    if (!place.empty()) line("-l place=" + place);
    if (!r.filesystems.empty()) line("-l filesystems=" + r.filesystems);
    if (!r.account.empty()) line("-A " + r.account);
    if (!r.queue.empty()) line("-q " + r.queue);
    if (array.tasks > 1)
      line(fmt::format("-J 0-{}{}", array.tasks - 1,
                       array.cap > 0 ? fmt::format("%{}", array.cap) : ""));
    for (const auto& e : r.extra) line(e);
    return out;
  }

  // PBS wants a job name starting with a letter.
  std::string job_name(const std::string& name) const override {
    if (!name.empty() && !std::isalpha(static_cast<unsigned char>(name[0]))) return "j" + name;
    return name;
  }

  std::string_view task_index_expression() const override { return "${PBS_ARRAY_INDEX:-0}"; }
  std::string_view job_id_expression() const override { return "\"${PBS_JOBID:-}\""; }
  std::string_view by_hand() const override { return "PBS_ARRAY_INDEX=N bash THIS_SCRIPT"; }
  std::string_view array_task_token() const override { return "^array_index^"; }
  std::string_view allocation_variable() const override { return "PBS_JOBID"; }
  std::string_view array_limit_setting() const override { return "max_array_size"; }
  // PBS has no job steps: a command runs in the allocation as it is.

  std::unique_ptr<SchedulerClient> client() const override { return std::make_unique<PbsClient>(); }
};

}  // namespace

const SchedulerBackend& pbs_backend() {
  static const PbsBackend b;
  return b;
}

}  // namespace aerun
