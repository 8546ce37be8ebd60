// scheduler_directives: the #SBATCH / #PBS lines of a case's resources.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sched/job_script.hpp"

namespace aerun {

std::string format_walltime(double seconds) {
  const long long s = static_cast<long long>(std::ceil(seconds));
  return fmt::format("{:02d}:{:02d}:{:02d}", s / 3600, (s / 60) % 60, s % 60);
}

namespace {

int array_cap(const JobScriptRequest& req) {
  return req.runs.size() > 1 ? req.array_cap : 0;
}

std::string slurm_directives(const ResourcesSpec& r, const JobScriptRequest& req) {
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
  if (req.runs.size() > 1) {
    const int cap = array_cap(req);
    line(
        fmt::format("--array=0-{}{}", req.runs.size() - 1, cap > 0 ? fmt::format("%{}", cap) : ""));
  }
  for (const auto& e : r.extra) line(e);
  return out;
}

std::string pbs_directives(const ResourcesSpec& r, const JobScriptRequest& req) {
  if (!r.constraint.empty())
    throw InputError(r.loc, "resources",
                     "constraint is a Slurm option; under PBS ask for it in the select statement "
                     "through resources.extra (e.g. '-l select=1:gpu_model=v100')");
  if (!r.hint.empty())
    throw InputError(r.loc, "resources",
                     "hint is a Slurm option (srun/sbatch --hint); PBS has none");
  std::string out;
  auto line = [&out](const std::string& s) { out += "#PBS " + s + "\n"; };
  if (r.nodes || r.tasks_per_node || r.cpus_per_task || r.gpus_per_node) {
    std::string chunk = fmt::format("select={}", r.nodes.value_or(1));
    if (r.cpus_per_task || r.tasks_per_node)
      chunk += fmt::format(":ncpus={}", r.tasks_per_node.value_or(1) * r.cpus_per_task.value_or(1));
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
  if (req.runs.size() > 1) {
    const int cap = array_cap(req);
    line(fmt::format("-J 0-{}{}", req.runs.size() - 1, cap > 0 ? fmt::format("%{}", cap) : ""));
  }
  for (const auto& e : r.extra) line(e);
  return out;
}

}  // namespace

double default_walltime(double timeout_s) {
  const double with_margin = std::max(timeout_s * 1.1, timeout_s + 300);
  return std::ceil(with_margin / 60 - 1e-9) * 60;  // 3000 s x 1.1 is 3300.0000000000005
}

std::string scheduler_directives(const CaseSpec& spec, const JobScriptRequest& req) {
  ResourcesSpec r = job_resources(spec, req);
  // No walltime but a timeout: the job may run the run to its timeout, plus a margin for its
  // start-up and the end of the script (else the queue's default, often shorter, kills it).
  if (r.walltime_s <= 0 && spec.timeout_s > 0) r.walltime_s = default_walltime(spec.timeout_s);
  switch (req.scheduler) {
    case Scheduler::Slurm:
      return slurm_directives(r, req);
    case Scheduler::Pbs:
      return pbs_directives(r, req);
    case Scheduler::None:
      break;
  }
  return "";
}

}  // namespace aerun
