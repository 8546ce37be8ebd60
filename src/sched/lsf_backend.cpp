// IBM Spectrum LSF as a backend: #BSUB directives (IBM LSF 10.1 bsub reference: -n, -R
// "span[ptile=N]", -gpu "num=N", -W minutes, -q, -P, -x, -J "name[1-N]%cap"), templates/lsf.sh,
// LSB_* variables, and its client (lsf_client.cpp). LSF's array indices start at 1: task N of a
// script is LSB_JOBINDEX N+1 (0 for a job that is no array). No LSF exists here: tested on a
// stand-in (tests/fixtures/lsf/).
#include <fmt/format.h>

#include <cmath>

#include "sched/lsf_client.hpp"
#include "sched/scheduler_backends.hpp"

namespace aerun {

namespace {

class LsfBackend final : public SchedulerBackend {
 public:
  Scheduler kind() const override { return Scheduler::Lsf; }
  std::string_view name() const override { return "lsf"; }
  std::string_view script_extension() const override { return "lsf"; }
  std::string_view template_file() const override { return "lsf.sh"; }

  std::string directives(const ResourcesSpec& r, const JobArray& array) const override {
    if (!r.constraint.empty())
      throw InputError(
          r.loc, "resources",
          "constraint is a Slurm option; under LSF ask for it in a resource "
          "requirement through resources.extra (e.g. '-R \"select[gpu_model==v100]\"')");
    if (!r.hint.empty())
      throw InputError(r.loc, "resources",
                       "hint is a Slurm option (srun/sbatch --hint); LSF has none");
    std::string out;
    auto line = [&out](const std::string& s) { out += "#BSUB " + s + "\n"; };
    // The job's name, and for several runs its array: "name[1-N]%cap" (index list and slot limit).
    std::string name = array.job_name;
    if (array.tasks > 1)
      name +=
          fmt::format("[1-{}]{}", array.tasks, array.cap > 0 ? fmt::format("%{}", array.cap) : "");
    line("-J \"" + name + "\"");
    if (r.nodes || r.tasks_per_node) {
      // -n is the job's tasks (slots); span[ptile=T] puts T on each host.
      const int per_node = r.tasks_per_node.value_or(1);
      line(fmt::format("-n {}", r.nodes.value_or(1) * per_node));
      line(fmt::format("-R \"span[ptile={}]\"", per_node));
    }
    if (r.cpus_per_task) line(fmt::format("-R \"affinity[core({})]\"", *r.cpus_per_task));
    if (r.gpus_per_node) line(fmt::format("-gpu \"num={}\"", *r.gpus_per_node));  // per host
    // -W [hour:]minute; whole minutes, rounded up.
    if (r.walltime_s > 0)
      line(fmt::format("-W {}", static_cast<long long>(std::ceil(r.walltime_s / 60))));
    if (!r.queue.empty()) line("-q " + r.queue);
    if (!r.account.empty()) line("-P " + r.account);
    if (r.exclusive) line("-x");
    for (const auto& e : r.extra) line(e);
    return out;
  }

  // LSB_JOBINDEX is 1..N in an array and 0 in a job that is none.
  std::string_view task_index_expression() const override {
    return "$(( ${LSB_JOBINDEX:-0} > 0 ? ${LSB_JOBINDEX:-0} - 1 : 0 ))";
  }
  std::string_view job_id_expression() const override { return "\"${LSB_JOBID:-}\""; }
  std::string_view by_hand() const override { return "LSB_JOBINDEX=N+1 bash THIS_SCRIPT"; }
  std::string_view array_task_token() const override { return "%I"; }
  std::string_view allocation_variable() const override { return "LSB_JOBID"; }
  std::string_view array_limit_setting() const override { return "MAX_JOB_ARRAY_SIZE"; }

  std::unique_ptr<SchedulerClient> client() const override { return std::make_unique<LsfClient>(); }
};

}  // namespace

const SchedulerBackend& lsf_backend() {
  static const LsfBackend b;
  return b;
}

}  // namespace aerun
