// capture_environment: the machine facts read from /proc and /etc, the tools found in the runs'
// PATH run at once (one thread each), then the case's own provenance commands.
#include "aerun/probe/capture_environment.hpp"

#include <sched.h>
#include <sys/utsname.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "aerun/util/captured_command.hpp"
#include "aerun/util/secret_text.hpp"
#include "aerun/util/sha256.hpp"
#include "probe/image_probe.hpp"

namespace aerun {

namespace {

// At most max_bytes of the file, read as it comes (a buffer of max_bytes filled with zeros first
// cost 20 ms for /proc/cpuinfo's 8 MiB limit).
std::string read_text(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::string s;
  char buf[1 << 16];
  while (s.size() < max_bytes && in) {
    in.read(buf, static_cast<std::streamsize>(std::min(sizeof buf, max_bytes - s.size())));
    s.append(buf, static_cast<size_t>(in.gcount()));
  }
  return s;
}

std::string trim_end(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// The value of the first "key<spaces>: value" line of /proc-style text.
std::string field(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const size_t b = line.find_first_not_of(" \t", colon + 1);
    return b == std::string::npos ? "" : line.substr(b);
  }
  return "";
}

EnvItem os_item() {
  const std::string text = read_text("/etc/os-release", 64 << 10);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string v = line.substr(12);
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      return {"os", "", v};
    }
  return {"os", "no PRETTY_NAME in /etc/os-release", ""};
}

EnvItem kernel_item() {
  utsname u{};
  if (uname(&u) != 0) return {"kernel", "uname failed", ""};
  return {"kernel", "", fmt::format("{} {} {} {}", u.sysname, u.release, u.version, u.machine)};
}

// The CPUs this process may run on (its affinity mask: a job step's share of a node).
int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
}

EnvItem cpu_item() {
  const std::string info = read_text("/proc/cpuinfo", 8 << 20);
  int processors = 0;
  for (size_t at = info.find("processor"); at != std::string::npos;
       at = info.find("\nprocessor", at + 1))
    ++processors;
  std::string model = field(info, "model name");
  if (model.empty()) model = field(info, "cpu model");  // other architectures
  std::string flags = field(info, "flags");
  if (flags.empty()) flags = field(info, "Features");
  std::string text = fmt::format("model: {}\nlogical cpus: {}\nusable by aerun: {}\n",
                                 model.empty() ? "unknown" : model, processors, usable_cpus());
  if (!flags.empty()) text += "flags: " + flags + "\n";
  return {"cpu", "", trim_end(text)};
}

EnvItem memory_item() {
  const std::string m = field(read_text("/proc/meminfo", 64 << 10), "MemTotal");
  return {"memory", m.empty() ? "no MemTotal in /proc/meminfo" : "", m.empty() ? "" : "total " + m};
}

// Output as recorded: stdout, with stderr when stdout is empty or the command failed.
std::string output_of(const CommandResult& r) {
  std::string text = trim_end(r.out);
  const std::string err = trim_end(r.err);
  if (!err.empty() && (text.empty() || !r.ok()))
    text += (text.empty() ? "" : "\n--- stderr ---\n") + err;
  if (r.truncated) text += "\n[... cut: longer than aerun keeps]";
  return text;
}

// A command to run for the record: its item name, argv, time limit, and whether it is only
// wanted when argv[0] is found (tools) or always (a case's own command).
struct Probe {
  std::string name;
  std::vector<std::string> argv;
  double timeout_s = 20;
  EnvItem result;
};

// The git items, from three git commands run one after the other (in the workdir).
void add_git_items(const CaptureOptions& o, const CommandSettings& how, EnvRecord& rec) {
  if (find_in_path("git", var_value(o.env, "PATH")).empty()) return;
  const CommandResult head = run_captured({"git", "rev-parse", "HEAD"}, how);
  if (!head.ok()) return;  // not a repository (or git cannot read it): nothing to record
  const CommandResult status = run_captured({"git", "status", "--porcelain"}, how);
  CommandSettings full = how;
  full.max_output_bytes = 1u << 30;  // digested whole, kept cut
  const CommandResult diff = run_captured({"git", "diff", "HEAD"}, full);
  std::string text = "commit " + trim_end(head.out) + "\n";
  if (diff.ok()) {
    text += fmt::format("diff against it: {} bytes, sha256 {}\n", diff.out.size(),
                        diff.out.empty() ? "-" : sha256_hex(diff.out));
  }
  const std::string st = trim_end(status.out);
  text += st.empty() ? "status: clean" : "status:\n" + st;
  rec.items.push_back(
      {"git", status.ok() ? "" : "git status: " + status.outcome(how.timeout_s), text});
  if (!diff.ok()) {
    rec.items.push_back({"git diff", "git diff: " + diff.outcome(how.timeout_s), ""});
  } else if (!diff.out.empty()) {
    std::string d = diff.out.substr(0, o.max_item_bytes);
    if (diff.out.size() > o.max_item_bytes)
      d += fmt::format("\n[... cut at {} of {} bytes]", o.max_item_bytes, diff.out.size());
    rec.items.push_back({"git diff", "", d});
  }
}

}  // namespace

EnvRecord capture_environment(const CaptureOptions& o) {
  EnvRecord rec;
  rec.items.push_back(os_item());
  rec.items.push_back(kernel_item());
  rec.items.push_back(cpu_item());
  rec.items.push_back(memory_item());
  rec.items.push_back({"environment", "", trim_end(redacted_environment(o.env))});
  if (const std::string mods = var_value(o.env, "LOADEDMODULES"); !mods.empty()) {
    std::string text;
    for (size_t b = 0; b <= mods.size();) {  // Lmod and Environment Modules both keep this list
      size_t e = mods.find(':', b);
      if (e == std::string::npos) e = mods.size();
      if (e > b) text += mods.substr(b, e - b) + "\n";
      b = e + 1;
    }
    rec.items.push_back({"modules", "", trim_end(text)});
  }

  CommandSettings how;
  how.environment = to_entries(o.env);
  how.workdir = o.workdir;
  how.timeout_s = o.tool_timeout_s;
  how.max_output_bytes = o.max_item_bytes;
  if (o.git) add_git_items(o, how, rec);

  if (!o.case_file.empty()) {
    std::string text = read_text(o.case_file, o.max_item_bytes + 1);
    std::string status;
    if (text.size() > o.max_item_bytes) {
      text.resize(o.max_item_bytes);
      status = "cut";
    } else if (!o.case_digest.empty() && sha256_hex(text) != o.case_digest) {
      status = "changed since aerun loaded it";
    }
    rec.items.push_back({"case file", status, text});
  }

  // Tools in the runs' PATH, then the case's commands: all at once.
  const std::string path = var_value(o.env, "PATH");
  std::vector<Probe> probes;
  auto tool = [&](const std::string& name, std::vector<std::string> argv) {
    if (!find_in_path(argv[0], path).empty())
      probes.push_back({name, std::move(argv), o.tool_timeout_s, {}});
  };
  for (const char* c : {"cc", "c++", "nvcc", "mpicc"})
    tool(fmt::format("{} --version", c), {c, "--version"});
  tool("mpiexec --version", {"mpiexec", "--version"});
  tool("mpirun --version", {"mpirun", "--version"});
  tool("nvidia-smi",
       {"nvidia-smi", "--query-gpu=index,name,uuid,driver_version,memory.total,pci.bus_id",
        "--format=csv"});
  tool("rocm-smi", {"rocm-smi", "--showproductname", "--showdriverversion"});
  tool("xpu-smi", {"xpu-smi", "discovery"});
  const std::string python = !find_in_path("python", path).empty() ? "python" : "python3";
  tool("python --version", {python, "--version"});
  tool("pip freeze", {python, "-m", "pip", "freeze", "--disable-pip-version-check"});
  if (!var_value(o.env, "CONDA_PREFIX").empty()) tool("conda list", {"conda", "list", "--export"});
  for (const auto& c : o.commands)
    probes.push_back({"provenance " + c.name, {o.shell, "-c", c.command}, c.timeout_s, {}});

  // Tool probes whose inputs did not change since they were kept are not run again.
  const size_t tools = probes.size() - o.commands.size();
  std::vector<std::string> fingerprints(probes.size());
  std::vector<bool> kept(probes.size(), false);
  if (o.cache && o.cache->enabled()) {
    ProbeFingerprints fingerprint(o.fingerprint_env.empty() ? o.env : o.fingerprint_env, o.workdir);
    for (size_t i = 0; i < tools; ++i) {
      fingerprints[i] = fingerprint.of({probes[i].name, probes[i].argv});
      if (auto item = o.cache->find(fingerprints[i])) {
        probes[i].result = std::move(*item);
        kept[i] = true;
      }
    }
  }

  std::vector<std::thread> threads;
  threads.reserve(probes.size());
  for (size_t i = 0; i < probes.size(); ++i) {
    if (kept[i]) continue;
    threads.emplace_back([&p = probes[i], how] {
      CommandSettings mine = how;
      mine.timeout_s = p.timeout_s;
      const CommandResult r = run_captured(p.argv, mine);
      p.result = {p.name, r.outcome(p.timeout_s), output_of(r)};
    });
  }
  // The images, each started once, one after the other on a thread of their own (the only one
  // that reads and keeps cache entries while the tools run).
  std::vector<std::vector<EnvItem>> image_items(o.images.size());
  if (!o.images.empty())
    threads.emplace_back([&, how] {
      for (size_t i = 0; i < o.images.size(); ++i)
        image_items[i] = probe_image(o.images[i], static_cast<int>(i), how, o.cache);
    });
  for (auto& t : threads) t.join();
  if (o.cache) {
    for (size_t i = 0; i < tools; ++i)
      if (!kept[i]) o.cache->keep(fingerprints[i], probes[i].result);
    o.cache->save();
  }
  for (auto& p : probes) rec.items.push_back(std::move(p.result));
  for (auto& items : image_items)
    for (auto& i : items) rec.items.push_back(std::move(i));
  // A secret anywhere in the record (a git remote's token, the case file's `--hf-token X`) is
  // not kept (issue 40).
  for (EnvItem& i : rec.items) i.text = redacted_text(i.text);
  return rec;
}

}  // namespace aerun
