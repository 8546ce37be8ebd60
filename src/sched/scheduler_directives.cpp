// scheduler_directives: a job's directive lines, from its resources, by its scheduler's backend.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sched/job_script.hpp"
#include "sched/scheduler_backends.hpp"

namespace aerun {

std::string format_walltime(double seconds) {
  const long long s = static_cast<long long>(std::ceil(seconds));
  return fmt::format("{:02d}:{:02d}:{:02d}", s / 3600, (s / 60) % 60, s % 60);
}

double default_walltime(double timeout_s) {
  const double with_margin = std::max(timeout_s * 1.1, timeout_s + 300);
  return std::ceil(with_margin / 60 - 1e-9) * 60;  // 3000 s x 1.1 is 3300.0000000000005
}

std::string scheduler_directives(const CaseSpec& spec, const JobScriptRequest& req) {
  ResourcesSpec r = job_resources(spec, req);
  // No walltime but a timeout: the job may run the run to its timeout, plus a margin for its
  // start-up and the end of the script (else the queue's default, often shorter, kills it).
  if (r.walltime_s <= 0 && spec.timeout_s > 0) r.walltime_s = default_walltime(spec.timeout_s);
  const JobArray array{req.runs.size(), req.runs.size() > 1 ? req.array_cap : 0, req.job_name};
  return scheduler_backend(req.scheduler).directives(r, array);
}

}  // namespace aerun
