// allocation_id, as_job_steps, job_launch_setup (allocation_steps.hpp).
#include "aerun/sched/allocation_steps.hpp"

#include <cstdlib>

#include "aerun/util/shell_quote.hpp"

namespace aerun {

std::string allocation_id(Scheduler s) {
  if (s == Scheduler::None) return "";
  const char* v = std::getenv(s == Scheduler::Slurm ? "SLURM_JOB_ID" : "PBS_JOBID");
  return v && *v ? v : "";
}

void as_job_steps(const CaseSpec& spec, Scheduler s, std::vector<PlannedRun>& planned) {
  if (s != Scheduler::Slurm || spec.launcher) return;
  for (auto& p : planned) {
    const ResourcesSpec& r = resources_of(spec, p);  // the point's own size
    std::string step = "srun --exact --nodes=" + std::to_string(r.nodes.value_or(1)) +
                       " --ntasks-per-node=" + std::to_string(r.tasks_per_node.value_or(1));
    if (r.cpus_per_task) step += " --cpus-per-task=" + std::to_string(*r.cpus_per_task);
    if (r.gpus_per_node) step += " --gpus-per-node=" + std::to_string(*r.gpus_per_node);
    p.command = step + " " + shell_quote(spec.shell) + " -c " + shell_quote(p.command);
  }
}

LaunchSetup job_launch_setup(const CaseSpec& spec) {
  LaunchSetup l;
  if (spec.launcher) l.prefix = "$DIST_LAUNCH";
  l.gpu_vendor = "node";  // a container's `gpus: auto`: the job's node decides (container_line)
  return l;
}

}  // namespace aerun
