// to_args / from_args: a LauncherSpec as `aerun env` flags (launcher_args.hpp).
#include "aerun/launch/launcher_args.hpp"

#include <fmt/format.h>

#include <charconv>

#include "aerun/launch/launcher.hpp"

namespace aerun {

namespace {

std::string opt(const std::optional<int>& v) {
  return v ? std::to_string(*v) : std::string();
}

int parse_count(std::string_view name, const std::string& value, int min, int max) {
  int n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < min || n > max)
    throw InputError(
        SourceLoc{}, fmt::format("--{}", name),
        fmt::format("expected a whole number from {} to {}, not '{}'", min, max, value));
  return n;
}

}  // namespace

const std::vector<LauncherFlag>& launcher_flags() {
  static const std::vector<LauncherFlag> flags{
      {"launcher", "mpich | pals | openmpi | intelmpi | srun | torchrun | deepspeed | none"},
      {"ranks", "total ranks"},
      {"ranks-per-node", "N | gpus (default: gpus)"},
      {"nodes", "nodes to use (default: all hosts)"},
      {"cpu-bind", "none | core | socket | depth | aurora | list:..."},
      {"depth", "CPUs per rank for depth binding"},
      {"gpu-bind", "GPU binding (pals, srun)"},
      {"gpus-per-host", "GPUs per host (skips GPU discovery)"},
      {"hostfile", "hostfile (default: PBS_NODEFILE under PBS)"},
      {"mpi", "srun --mpi: mpich | openmpi | cray | a plugin name"},
      {"program", "launcher executable (e.g. mpiexec.hydra)"},
      {"master-port", "MASTER_PORT / rendezvous port"},
      {"extra", "extra launcher argument (repeatable; --extra=--verbose)", true},
      {"env", "variable to forward (repeatable; 'all' for every one)", true},
  };
  return flags;
}

std::vector<std::string> to_args(const LauncherSpec& l) {
  std::vector<std::string> out;
  auto add = [&out](std::string_view name, const std::string& v) {
    if (!v.empty()) out.push_back(fmt::format("--{}={}", name, v));
  };
  add("launcher", l.kind);
  add("ranks", opt(l.ranks));
  add("ranks-per-node", opt(l.ranks_per_node));
  add("nodes", opt(l.nodes));
  add("cpu-bind", l.cpu_bind);
  add("depth", opt(l.depth));
  add("gpu-bind", l.gpu_bind);
  add("gpus-per-host", opt(l.gpus_per_node));
  add("hostfile", l.hostfile);
  add("mpi", l.mpi);
  add("program", l.program);
  add("master-port", std::to_string(l.master_port));
  for (const auto& x : l.extra_args) add("extra", x);
  for (const auto& v : l.env) add("env", v);
  return out;
}

void set_launcher_flag(LauncherSpec& l, std::string_view name, const std::string& v) {
  constexpr int kMax = 1 << 30;
  if (name == "launcher") {
    try {
      find_dialect(v);
    } catch (const InputError& e) {
      throw InputError(SourceLoc{}, "--launcher", e.message());
    }
    l.kind = v;
  } else if (name == "ranks") {
    l.ranks = parse_count(name, v, 1, kMax);
  } else if (name == "ranks-per-node") {
    if (v == "gpus")
      l.ranks_per_node.reset();
    else
      l.ranks_per_node = parse_count(name, v, 1, kMax);
  } else if (name == "nodes") {
    l.nodes = parse_count(name, v, 1, kMax);
  } else if (name == "cpu-bind") {
    l.cpu_bind = v;
  } else if (name == "depth") {
    l.depth = parse_count(name, v, 1, kMax);
  } else if (name == "gpu-bind") {
    l.gpu_bind = v;
  } else if (name == "gpus-per-host") {
    l.gpus_per_node = parse_count(name, v, 0, kMax);
  } else if (name == "hostfile") {
    l.hostfile = v;
  } else if (name == "mpi") {
    l.mpi = v;
  } else if (name == "program") {
    l.program = v;
  } else if (name == "master-port") {
    l.master_port = parse_count(name, v, 1, 65535);
  } else if (name == "extra") {
    l.extra_args.push_back(v);
  } else if (name == "env") {
    l.env.push_back(v);
  } else {
    throw InputError(SourceLoc{}, fmt::format("--{}", name), "no such launcher setting");
  }
}

LauncherSpec from_args(const std::vector<std::string>& args) {
  LauncherSpec l;
  for (const std::string& a : args) {
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) != 0 || eq == std::string::npos)
      throw InputError(SourceLoc{}, a, "expected --name=value");
    set_launcher_flag(l, std::string_view(a).substr(2, eq - 2), a.substr(eq + 1));
  }
  return l;
}

}  // namespace aerun
