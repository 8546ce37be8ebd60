// allocation_id, as_job_steps, job_launch_setup (allocation_steps.hpp).
#include "aerun/sched/allocation_steps.hpp"

#include <cstdlib>

#include "aerun/sched/scheduler_backend.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

std::string allocation_id(Scheduler s) {
  const std::string name(scheduler_backend(s).allocation_variable());
  if (name.empty()) return "";
  const char* v = std::getenv(name.c_str());
  return v && *v ? v : "";
}

void as_job_steps(const CaseSpec& spec, Scheduler s, std::vector<PlannedRun>& planned) {
  if (spec.launcher) return;
  const SchedulerBackend& backend = scheduler_backend(s);
  for (auto& p : planned) {
    const auto step = backend.job_step(resources_of(spec, p));  // the point's own size
    if (!step) return;
    p.command = *step + " " + shell_quote(spec.shell) + " -c " + shell_quote(p.command);
  }
}

LaunchSetup job_launch_setup(const CaseSpec& spec) {
  LaunchSetup l;
  if (spec.launcher) l.prefix = "$DIST_LAUNCH";
  l.gpu_vendor = "node";  // a container's `gpus: auto`: the job's node decides (container_line)
  return l;
}

}  // namespace aerun
