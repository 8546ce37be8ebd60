// Shared pieces of the launcher dialects.
#include "launch/dialect_parts.hpp"

#include <algorithm>

namespace aerun::detail {

HostArg host_arg(const ClusterInfo& c, std::initializer_list<HostfileFormat> readable) {
  if (!c.hostfile.empty() &&
      std::find(readable.begin(), readable.end(), c.hostfile_format) != readable.end())
    return HostArg::Hostfile;
  if (c.hostfile.empty() && c.scheduler == Scheduler::Slurm && c.hosts_source != "hosts")
    return HostArg::Nothing;
  if (c.hosts_source == "localhost") return HostArg::Nothing;
  return HostArg::List;
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

std::string cpu_bind_or(const LauncherSpec& spec, const std::string& fallback) {
  return spec.cpu_bind.empty() ? fallback : spec.cpu_bind;
}

void unsupported(const LauncherSpec& spec, const std::string& what) {
  throw InputError(spec.loc, "launcher",
                   spec.kind + " cannot " + what + " (see docs/launchers.md)");
}

bool forwards_all(const LauncherSpec& spec) {
  return std::find(spec.env.begin(), spec.env.end(), "all") != spec.env.end();
}

std::string program_of(const LauncherSpec& spec, const std::string& fallback) {
  return spec.program.empty() ? fallback : spec.program;
}

std::vector<std::string> hydra_start(const LauncherSpec& spec, const ClusterInfo& c,
                                     const LaunchLayout& l, const char* hostfile_flag) {
  std::vector<std::string> argv{program_of(spec, "mpiexec")};
  argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
  argv.insert(argv.end(),
              {"-n", std::to_string(l.ranks), "-ppn", std::to_string(l.ranks_per_node)});
  switch (host_arg(c, {HostfileFormat::Plain, HostfileFormat::Mpich})) {
    case HostArg::Hostfile:
      argv.insert(argv.end(), {hostfile_flag, c.hostfile});
      break;
    case HostArg::List:
      argv.insert(argv.end(), {"-hosts", join(l.hosts, ",")});
      break;
    case HostArg::Nothing:
      break;
  }
  return argv;
}

}  // namespace aerun::detail
