#include "aerun/case/apply_system.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "aerun/case/module_lines.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {

std::string duration_text(double s) {
  const auto whole = static_cast<long long>(s);
  if (whole % 3600 == 0) return fmt::format("{}h", whole / 3600);
  if (whole % 60 == 0) return fmt::format("{}m", whole / 60);
  return fmt::format("{}s", whole);
}

}  // namespace

void check_valid_system(const CaseSpec& spec, const std::string& system) {
  if (spec.valid_systems.empty() || std::find(spec.valid_systems.begin(), spec.valid_systems.end(),
                                              system) != spec.valid_systems.end())
    return;
  std::string names;
  for (const std::string& n : spec.valid_systems) names += (names.empty() ? "" : ", ") + n;
  throw InputError(spec.valid_systems_loc, "valid_systems",
                   fmt::format("case {} runs on {} only, and this is {}: name one of them with "
                               "--system (aerun systems lists them)",
                               spec.name, names,
                               system == "local" ? "no named system (local)" : "system " + system));
}

void resolve_system_launcher(CaseSpec& spec, const SystemProfile& p) {
  if (!spec.launcher || spec.launcher->kind != kSystemLauncher) return;
  LauncherSpec& l = *spec.launcher;
  // The profile's launcher; one that names none has its scheduler's own (srun), else none.
  l.kind = !p.launcher.empty() ? p.launcher : p.scheduler == "slurm" ? "srun" : "none";
  const bool several = l.ranks.value_or(1) != 1 || l.nodes.value_or(1) != 1 ||
                       l.ranks_per_node.value_or(1) != 1 || !l.per_point.empty();
  if (l.kind == "none" && several)
    throw InputError(l.loc, "launcher.kind",
                     fmt::format("'system': system {} ({}) names no launcher, and this case asks "
                                 "for more than one rank; give the profile a `launcher:` or "
                                 "name one here",
                                 p.name, p.file));
}

void apply_system(CaseSpec& spec, const SystemProfile& p) {
  spec.system = p.name;
  resolve_system_launcher(spec, p);
  ResourcesSpec& r = spec.resources;
  if (!spec.scheduler && p.scheduler != "local")
    spec.scheduler = parse_scheduler(p.scheduler, "scheduler");
  const SourceLoc at = r.loc.file.empty() ? SourceLoc{spec.file, 1, 1} : r.loc;
  const bool own_queue = !r.queue.empty();
  if (r.queue.empty()) r.queue = p.queue;
  if (r.account.empty()) r.account = p.account;
  if (r.filesystems.empty() && p.scheduler == "pbs") r.filesystems = p.filesystems;
  const SystemQueue* q = p.find_queue(r.queue);
  if (own_queue && !q && !p.queues.empty()) {
    std::string names;
    for (const SystemQueue& x : p.queues) names += (names.empty() ? "" : ", ") + x.name;
    throw InputError(
        at, "resources.queue",
        fmt::format("'{}' is not a queue of system {} ({}: {})", r.queue, p.name, p.file, names));
  }
  if (q) {
    if (!r.gpus_per_node && q->gpus_per_node) r.gpus_per_node = q->gpus_per_node;
    if (r.constraint.empty()) r.constraint = q->constraint;
    if (!q->qos.empty() && p.scheduler == "slurm" &&
        std::none_of(r.extra.begin(), r.extra.end(),
                     [](const std::string& e) { return e.find("--qos") != std::string::npos; }))
      r.extra.push_back("--qos=" + q->qos);
    if (!q->partition.empty()) r.queue = q->partition;
    const std::string where = fmt::format("system {}'s queue '{}' ({})", p.name, q->name, p.file);
    if (r.nodes && q->max_nodes && *r.nodes > *q->max_nodes)
      throw InputError(
          at, "resources.nodes",
          fmt::format("asks {} nodes; {} allows at most {}", *r.nodes, where, *q->max_nodes));
    if (r.nodes && q->min_nodes && *r.nodes < *q->min_nodes)
      throw InputError(
          at, "resources.nodes",
          fmt::format("asks {} node(s); {} takes at least {}", *r.nodes, where, *q->min_nodes));
    if (r.walltime_s > 0 && q->walltime_s && r.walltime_s > *q->walltime_s)
      throw InputError(r.walltime_loc.file.empty() ? at : r.walltime_loc, "resources.walltime",
                       fmt::format("asks {}; {} allows at most {}", duration_text(r.walltime_s),
                                   where, duration_text(*q->walltime_s)));
  }
  spec.system_setup = module_lines(p);
  for (const std::string& line : p.setup) spec.system_setup.push_back(line);
  for (const auto& [name, value] : p.variables)
    spec.system_setup.push_back("export " + name + "=" + shell_quote(value));
}

}  // namespace aerun
