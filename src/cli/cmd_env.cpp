// `aerun env`: what discovery found (scheduler, hosts, GPUs) and the launch line, as text (like
// ezpz's [DIST INFO] block), JSON, sourceable sh (with a `launch` function) or the bare line.
#include <fmt/format.h>

#include <iostream>

#include "aerun/cluster.hpp"
#include "aerun/launcher.hpp"
#include "aerun/shell_quote.hpp"
#include "aerun/text_format.hpp"
#include "cli/app.hpp"

namespace aerun::cli {

namespace {

struct EnvArgs {
  std::string scheduler = "auto";
  std::string hostfile;
  std::string hosts;
  std::optional<int> gpus_per_host;
  std::optional<int> cpus_per_host;
  std::string launcher;  // "" = by scheduler: slurm -> srun, pbs -> pals, none -> none
  std::string program;
  std::optional<int> ranks;
  std::string ranks_per_node;  // N | gpus
  std::optional<int> nodes;
  std::string cpu_bind;
  std::optional<int> depth;
  std::string gpu_bind;
  std::vector<std::string> extra;
  std::vector<std::string> env;
  std::string mpi;
  int master_port = 29500;
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

LauncherSpec spec_from(const EnvArgs& a, const ClusterInfo& c) {
  LauncherSpec s;
  s.kind = a.launcher;
  if (s.kind.empty())
    s.kind = c.scheduler == Scheduler::Slurm ? "srun"
             : c.scheduler == Scheduler::Pbs ? "pals"
                                             : "none";
  find_dialect(s.kind);
  if (!a.ranks_per_node.empty() && a.ranks_per_node != "gpus") {
    try {
      size_t used = 0;
      s.ranks_per_node = std::stoi(a.ranks_per_node, &used);
      if (used != a.ranks_per_node.size()) throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
      throw InputError(SourceLoc{}, "--ranks-per-node",
                       "expected a number or 'gpus', not '" + a.ranks_per_node + "'");
    }
  }
  s.program = a.program;
  s.ranks = a.ranks;
  s.nodes = a.nodes;
  s.cpu_bind = a.cpu_bind;
  s.depth = a.depth;
  s.gpu_bind = a.gpu_bind;
  s.extra_args = a.extra;
  s.env = a.env;
  s.gpus_per_node = a.gpus_per_host;
  s.mpi = a.mpi;
  s.master_port = a.master_port;
  return s;
}

std::string json_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + json_string(v[i]);
  return out + "]";
}

int env_command(const EnvArgs& a) {
  DiscoveryOptions o;
  if (a.scheduler != "auto") o.scheduler = parse_scheduler(a.scheduler, "--scheduler");
  o.hostfile = a.hostfile;
  o.hosts = split_hosts(a.hosts);
  o.gpus_per_host = a.gpus_per_host;
  o.cpus_per_host = a.cpus_per_host;
  const ClusterInfo c = discover(o);
  const LauncherSpec spec = spec_from(a, c);
  const LaunchLayout layout = plan_launch(spec, c);
  if (!layout.note.empty()) std::cerr << "aerun: note: " << layout.note << "\n";
  const std::vector<std::string> argv = launch_argv(spec, c);
  const std::string line = render_launch(spec, c);
  const std::vector<std::string> rdv = rendezvous_env(spec, c);
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
    for (const auto& kv : rdv) {
      const size_t eq = kv.find('=');
      exp(kv.substr(0, eq), kv.substr(eq + 1));
    }
    exp("DIST_LAUNCH", line);
    out += "launch() { " + (line.empty() ? std::string() : line + " ") + "\"$@\"; }\n";
  } else if (a.format == "json") {
    std::string env_obj;
    for (const auto& kv : rdv) {
      const size_t eq = kv.find('=');
      env_obj += (env_obj.empty() ? "" : ", ") + json_string(kv.substr(0, eq)) + ": " +
                 json_string(kv.substr(eq + 1));
    }
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
    for (const auto& kv : rdv) out += "    • " + kv + "\n";
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
  c->add_option("--hostfile", a->hostfile, "hostfile (default: PBS_NODEFILE under PBS)");
  c->add_option("--hosts", a->hosts, "explicit hosts, comma-separated");
  c->add_option("--gpus-per-host", a->gpus_per_host, "GPUs per host (skips GPU discovery)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--cpus-per-host", a->cpus_per_host, "logical CPUs per host")
      ->check(CLI::PositiveNumber);
  std::string kinds;
  for (const auto& d : launch_dialects()) kinds += (kinds.empty() ? "" : " | ") + d.name;
  c->add_option("--launcher", a->launcher,
                kinds + " (default: srun under Slurm, pals under PBS, else none)");
  c->add_option("--program", a->program, "launcher executable (e.g. mpiexec.hydra)");
  c->add_option("--ranks", a->ranks, "total ranks")->check(CLI::PositiveNumber);
  c->add_option("--ranks-per-node", a->ranks_per_node, "N | gpus (default: gpus)");
  c->add_option("--nodes", a->nodes, "nodes to use (default: all hosts)")
      ->check(CLI::PositiveNumber);
  c->add_option("--cpu-bind", a->cpu_bind, "none | core | socket | depth | aurora | list:...");
  c->add_option("--depth", a->depth, "CPUs per rank for depth binding")->check(CLI::PositiveNumber);
  c->add_option("--gpu-bind", a->gpu_bind, "GPU binding (pals, srun)");
  c->add_option("--extra", a->extra, "extra launcher argument (repeatable; --extra=--verbose)");
  c->add_option("--env", a->env, "variable to forward (repeatable; 'all' for every one)");
  c->add_option("--mpi", a->mpi, "srun --mpi: mpich | openmpi | cray | a plugin name");
  c->add_option("--master-port", a->master_port, "MASTER_PORT / rendezvous port")
      ->check(CLI::Range(1, 65535));
  c->add_option("--format", a->format, "text | json | sh | launch")
      ->check(CLI::IsMember({"text", "json", "sh", "launch"}));
  c->callback([&action, a] { action = [a] { return env_command(*a); }; });
}

}  // namespace aerun::cli
