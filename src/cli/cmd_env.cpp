// `aerun env`: what discovery found (scheduler, hosts, GPUs) and the launch line, as text (like
// ezpz's [DIST INFO] block), JSON, sourceable sh (with a `launch` function) or the bare line.
#include <fmt/format.h>

#include <iostream>
#include <map>

#include "aerun/cluster/cluster.hpp"
#include "aerun/launch/launcher.hpp"
#include "aerun/launch/launcher_args.hpp"
#include "aerun/util/shell_quote.hpp"
#include "aerun/util/text_format.hpp"
#include "cli/app.hpp"

namespace aerun::cli {

namespace {

struct EnvArgs {
  std::string scheduler = "auto";
  std::string hosts;
  std::optional<int> cpus_per_host;
  // The launcher's settings (launcher_args.hpp), by flag name, in the order given.
  std::map<std::string, std::vector<std::string>, std::less<>> launcher;
  std::string format = "text";
};

std::vector<std::string> split_hosts(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s + ",") {
    if (ch == ',' || ch == ' ') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  return out;
}

// The launcher the flags describe (launcher_args.hpp); without --launcher, the scheduler's own:
// srun under Slurm, pals under PBS, else none.
LauncherSpec launcher_from(const EnvArgs& a) {
  LauncherSpec s;
  s.kind.clear();
  for (const LauncherFlag& f : launcher_flags()) {
    const auto it = a.launcher.find(f.name);
    if (it == a.launcher.end()) continue;
    for (const auto& v : it->second) set_launcher_flag(s, f.name, v);
  }
  return s;
}

std::string json_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + json_string(v[i]);
  return out + "]";
}

int env_command(const EnvArgs& a) {
  LauncherSpec spec = launcher_from(a);
  DiscoveryOptions o;
  if (a.scheduler != "auto") o.scheduler = parse_scheduler(a.scheduler, "--scheduler");
  o.hostfile = spec.hostfile;
  o.hosts = split_hosts(a.hosts);
  o.gpus_per_host = spec.gpus_per_node;
  o.cpus_per_host = a.cpus_per_host;
  const ClusterInfo c = discover(o);
  if (spec.kind.empty())
    spec.kind = c.scheduler == Scheduler::Slurm ? "srun"
                : c.scheduler == Scheduler::Pbs ? "pals"
                                                : "none";
  const LaunchLayout layout = plan_launch(spec, c);
  if (!layout.note.empty()) std::cerr << "aerun: note: " << layout.note << "\n";
  const std::vector<std::string> argv = launch_argv(spec, c);
  const std::string line = render_launch(spec, c);
  const EnvVars rdv = rendezvous_env(spec, c);
  const std::string gpu_note = c.gpus_per_host == 0 ? "no GPU found" : "from " + c.gpu_source;
  std::string out;
  if (a.format == "launch") {
    out = line + "\n";
  } else if (a.format == "sh") {
    auto exp = [&](const std::string& k, const std::string& v) {
      out += "export " + k + "=" + shell_quote(v) + "\n";
    };
    exp("SCHEDULER", to_string(c.scheduler));
    exp("HOSTFILE", c.hostfile);
    std::string hosts;
    for (const auto& h : c.hosts) hosts += (hosts.empty() ? "" : " ") + h;
    exp("HOSTS", hosts);
    exp("NHOSTS", std::to_string(c.nhosts()));
    exp("NGPU_PER_HOST", std::to_string(c.gpus_per_host));
    exp("NGPUS", std::to_string(c.ngpus()));
    exp("GPU_SOURCE", c.gpu_source);
    exp("LAUNCHER", spec.kind);
    for (const auto& [name, value] : rdv) exp(name, value);
    exp("DIST_LAUNCH", line);
    out += "launch() { " + (line.empty() ? std::string() : line + " ") + "\"$@\"; }\n";
  } else if (a.format == "json") {
    std::string env_obj;
    for (const auto& [name, value] : rdv)
      env_obj += (env_obj.empty() ? "" : ", ") + json_string(name) + ": " + json_string(value);
    std::string slots;
    for (size_t i = 0; i < c.slots.size(); ++i)
      slots += (i ? ", " : "") + std::to_string(c.slots[i]);
    out = fmt::format(
        "{{\n  \"scheduler\": {},\n  \"job_id\": {},\n  \"hosts\": {},\n  \"slots\": [{}],\n"
        "  \"hosts_source\": {},\n  \"hostfile\": {},\n  \"hostfile_format\": {},\n"
        "  \"nhosts\": {},\n  \"ngpu_per_host\": {},\n  \"gpu_source\": {},\n  \"ngpus\": {},\n"
        "  \"cpus_per_host\": {},\n  \"threads_per_core\": {},\n  \"launcher\": {},\n"
        "  \"nodes\": {},\n  \"ranks\": {},\n  \"ranks_per_node\": {},\n  \"depth\": {},\n"
        "  \"launch\": {},\n  \"launch_argv\": {},\n  \"env\": {{{}}}\n}}\n",
        json_string(to_string(c.scheduler)), json_string(c.job_id), json_list(c.hosts), slots,
        json_string(c.hosts_source), json_string(c.hostfile),
        json_string(c.hostfile.empty() ? "" : to_string(c.hostfile_format)), c.nhosts(),
        c.gpus_per_host, json_string(c.gpu_source), c.ngpus(), c.cpus_per_host, c.threads_per_core,
        json_string(spec.kind), layout.nodes, layout.ranks, layout.ranks_per_node, layout.depth,
        json_string(line), json_list(argv), env_obj);
  } else {
    out += "[HOSTS]\n";
    for (size_t i = 0; i < c.hosts.size(); ++i)
      out += fmt::format("    • [host:{}] - {}\n", i, c.hosts[i]);
    out += "\n[DIST INFO]\n";
    out += fmt::format("    • SCHEDULER={}{}\n", to_string(c.scheduler),
                       c.job_id.empty() ? "" : " (job " + c.job_id + ")");
    out +=
        fmt::format("    • HOSTFILE={}\n",
                    c.hostfile.empty() ? "(none: hosts from " + c.hosts_source + ")" : c.hostfile);
    out += fmt::format("    • NHOSTS={}\n", c.nhosts());
    out += fmt::format("    • NGPU_PER_HOST={} ({})\n", c.gpus_per_host, gpu_note);
    out += fmt::format("    • NGPUS={}\n", c.ngpus());
    out += fmt::format("    • LAUNCHER={} ({} rank{}, {} per node, {} node{})\n", spec.kind,
                       layout.ranks, layout.ranks == 1 ? "" : "s", layout.ranks_per_node,
                       layout.nodes, layout.nodes == 1 ? "" : "s");
    for (const auto& [name, value] : rdv) out += "    • " + name + "=" + value + "\n";
    out += fmt::format("    • DIST_LAUNCH={}\n", line.empty() ? "(none: a single process)" : line);
    out += "\n[LAUNCH]\n    • eval \"$(aerun env ... --format sh)\" defines: launch <program>\n";
  }
  std::cout << out;
  return 0;
}

}  // namespace

void add_env_command(CLI::App& app, Globals&, Action& action) {
  auto a = std::make_shared<EnvArgs>();
  CLI::App* c = app.add_subcommand(
      "env", "show the cluster (scheduler, hosts, GPUs) and the launch line for a launcher");
  c->add_option("--scheduler", a->scheduler, "auto | pbs | slurm | none (default: detect)")
      ->check(CLI::IsMember({"auto", "pbs", "slurm", "none"}));
  c->add_option("--hosts", a->hosts, "explicit hosts, comma-separated");
  c->add_option("--cpus-per-host", a->cpus_per_host, "logical CPUs per host")
      ->check(CLI::PositiveNumber);
  for (const LauncherFlag& f : launcher_flags()) {
    auto* o = c->add_option(fmt::format("--{}", f.name), a->launcher[std::string(f.name)],
                            std::string(f.help));
    if (!f.repeated) o->expected(1);
  }
  c->add_option("--format", a->format, "text | json | sh | launch")
      ->check(CLI::IsMember({"text", "json", "sh", "launch"}));
  c->callback([&action, a] { action = [a] { return env_command(*a); }; });
}

}  // namespace aerun::cli
