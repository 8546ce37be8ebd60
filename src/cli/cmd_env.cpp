// `aerun env`: what discovery found (scheduler, hosts, GPUs) and the launch line, as text (like
// ezpz's [DIST INFO] block), JSON, sourceable sh (with a `launch` function) or the bare line.
#include <fmt/format.h>

#include <iostream>
#include <map>

#include "aerun/case/system_catalog.hpp"
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

// What `aerun env` found and works out, for each of its formats.
struct EnvView {
  const ClusterInfo& c;
  const LauncherSpec& spec;
  LaunchLayout layout;
  std::vector<std::string> argv;
  std::string line;  // the launch line
  EnvVars rdv;       // the rendezvous variables
  std::string gpu_note;
  std::string system;      // the system profile recognised here (issue 41)
  std::string system_why;  // why
};

// --format sh: variables to eval, and `launch` (a function).
std::string env_sh(const EnvView& v) {
  std::string out;
  auto exp = [&](const std::string& k, const std::string& value) {
    out += "export " + k + "=" + shell_quote(value) + "\n";
  };
  exp("AERUN_SYSTEM", v.system);
  exp("SCHEDULER", to_string(v.c.scheduler));
  exp("HOSTFILE", v.c.hostfile);
  std::string hosts;
  for (const auto& h : v.c.hosts) hosts += (hosts.empty() ? "" : " ") + h;
  exp("HOSTS", hosts);
  exp("NHOSTS", std::to_string(v.c.nhosts()));
  exp("NGPU_PER_HOST", std::to_string(v.c.gpus_per_host));
  exp("NGPUS", std::to_string(v.c.ngpus()));
  exp("GPU_SOURCE", v.c.gpu_source);
  exp("LAUNCHER", v.spec.kind);
  for (const auto& [name, value] : v.rdv) exp(name, value);
  exp("DIST_LAUNCH", v.line);
  out += "launch() { " + (v.line.empty() ? std::string() : v.line + " ") + "\"$@\"; }\n";
  return out;
}

std::string env_json(const EnvView& v) {
  std::string out;
  std::string env_obj;
  for (const auto& [name, value] : v.rdv)
    env_obj += (env_obj.empty() ? "" : ", ") + json_string(name) + ": " + json_string(value);
  std::string slots;
  for (size_t i = 0; i < v.c.slots.size(); ++i)
    slots += (i ? ", " : "") + std::to_string(v.c.slots[i]);
  out = fmt::format(
      "{{\n  \"system\": {},\n  \"scheduler\": {},\n  \"job_id\": {},\n  \"hosts\": {},\n  "
      "\"slots\": [{}],\n"
      "  \"hosts_source\": {},\n  \"hostfile\": {},\n  \"hostfile_format\": {},\n"
      "  \"nhosts\": {},\n  \"ngpu_per_host\": {},\n  \"gpu_source\": {},\n  \"ngpus\": {},\n"
      "  \"cpus_per_host\": {},\n  \"threads_per_core\": {},\n  \"launcher\": {},\n"
      "  \"nodes\": {},\n  \"ranks\": {},\n  \"ranks_per_node\": {},\n  \"depth\": {},\n"
      "  \"launch\": {},\n  \"launch_argv\": {},\n  \"env\": {{{}}}\n}}\n",
      json_string(v.system), json_string(to_string(v.c.scheduler)), json_string(v.c.job_id),
      json_list(v.c.hosts), slots, json_string(v.c.hosts_source), json_string(v.c.hostfile),
      json_string(v.c.hostfile.empty() ? "" : to_string(v.c.hostfile_format)), v.c.nhosts(),
      v.c.gpus_per_host, json_string(v.c.gpu_source), v.c.ngpus(), v.c.cpus_per_host,
      v.c.threads_per_core, json_string(v.spec.kind), v.layout.nodes, v.layout.ranks,
      v.layout.ranks_per_node, v.layout.depth, json_string(v.line), json_list(v.argv), env_obj);
  return out;
}

// The default: the hosts, the distributed setup and how to launch, for a person.
std::string env_text(const EnvView& v) {
  std::string out = "[HOSTS]\n";
  for (size_t i = 0; i < v.c.hosts.size(); ++i)
    out += fmt::format("    • [host:{}] - {}\n", i, v.c.hosts[i]);
  out += "\n[DIST INFO]\n";
  out += fmt::format("    • SYSTEM={} ({})\n", v.system, v.system_why);
  out += fmt::format("    • SCHEDULER={}{}\n", to_string(v.c.scheduler),
                     v.c.job_id.empty() ? "" : " (job " + v.c.job_id + ")");
  out += fmt::format("    • HOSTFILE={}\n", v.c.hostfile.empty()
                                                ? "(none: hosts from " + v.c.hosts_source + ")"
                                                : v.c.hostfile);
  out += fmt::format("    • NHOSTS={}\n", v.c.nhosts());
  out += fmt::format("    • NGPU_PER_HOST={} ({})\n", v.c.gpus_per_host, v.gpu_note);
  out += fmt::format("    • NGPUS={}\n", v.c.ngpus());
  out += fmt::format("    • LAUNCHER={} ({} rank{}, {} per node, {} node{})\n", v.spec.kind,
                     v.layout.ranks, v.layout.ranks == 1 ? "" : "s", v.layout.ranks_per_node,
                     v.layout.nodes, v.layout.nodes == 1 ? "" : "s");
  for (const auto& [name, value] : v.rdv) out += "    • " + name + "=" + value + "\n";
  out +=
      fmt::format("    • DIST_LAUNCH={}\n", v.line.empty() ? "(none: a single process)" : v.line);
  out += "\n[LAUNCH]\n    • eval \"$(aerun env ... --format sh)\" defines: launch <program>\n";
  return out;
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
  EnvView v{c,
            spec,
            plan_launch(spec, c),
            launch_argv(spec, c),
            render_launch(spec, c),
            rendezvous_env(spec, c),
            c.gpus_per_host == 0 ? "no GPU found" : "from " + c.gpu_source,
            "",
            ""};
  // The system profile of this machine (`aerun systems`); a profile folder with an error does not
  // stop `aerun env` (it runs inside jobs): the system is then unknown, and the error a note.
  try {
    const SystemCatalog catalog = load_system_catalog(system_folders(""));
    const SystemMatch m = recognise_system(catalog, MachineFacts::here());
    v.system = m.profile->name;
    v.system_why = m.why;
  } catch (const InputError& e) {
    v.system = "unknown";
    v.system_why = "a system profile has an error";
    std::cerr << "aerun: note: " << e.what() << "\n";
  }
  if (!v.layout.note.empty()) std::cerr << "aerun: note: " << v.layout.note << "\n";
  std::cout << (a.format == "launch" ? v.line + "\n"
                : a.format == "sh"   ? env_sh(v)
                : a.format == "json" ? env_json(v)
                                     : env_text(v));
  return 0;
}

}  // namespace

void add_env_command(CLI::App& app, Globals&, Action& action) {
  auto a = std::make_shared<EnvArgs>();
  CLI::App* c = app.add_subcommand(
      "env", "show the cluster (scheduler, hosts, GPUs) and the launch line for a launcher");
  c->add_option("--scheduler", a->scheduler, "auto | slurm | pbs | lsf | none (default: detect)")
      ->check(CLI::IsMember([] {
        std::vector<std::string> names{"auto"};
        names.insert(names.end(), batch_scheduler_names().begin(), batch_scheduler_names().end());
        names.push_back("none");
        return names;
      }()));
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
