// What a tool probe's output depends on, digested (include/aerun/probe/probe_cache.hpp).
#include <glob.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "aerun/probe/probe_cache.hpp"
#include "aerun/util/captured_command.hpp"
#include "aerun/util/sha256.hpp"

namespace aerun {

namespace fs = std::filesystem;

namespace {

// Bump when what goes into a fingerprint changes: every kept item is taken again.
constexpr const char* kFingerprintVersion = "aerun tool probe fingerprint 1";
// A tool file this small (a wrapper script, a pyenv shim) is digested whole; a bigger one (a
// compiled binary) by its inode, size and times.
constexpr off_t kDigestedBytes = 64 << 10;

std::string read_small(const std::string& path, size_t max_bytes = 4096) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::string s(max_bytes, '\0');
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

// A file or folder as it is now: "missing", its content's digest, or its identity and times.
std::string identity(const std::string& path, bool content_when_small = true) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return path + " missing";
  if (content_when_small && S_ISREG(st.st_mode) && st.st_size <= kDigestedBytes)
    return fmt::format("{} {:o} sha256 {}", path, st.st_mode, sha256_file(path));
  return fmt::format("{} {:o} {}:{} {} {}.{} {}.{}", path, st.st_mode, st.st_dev, st.st_ino,
                     st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ctim.tv_sec,
                     st.st_ctim.tv_nsec);
}

std::vector<std::string> glob_paths(const std::string& pattern) {
  std::vector<std::string> out;
  glob_t g{};
  if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  ::globfree(&g);
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);)
    if (!part.empty()) out.push_back(part);
  return out;
}

// The package folders of one Python prefix: its pyvenv.cfg, its site-packages and dist-packages.
std::string prefix_packages(const std::string& p) {
  std::string out = identity(p + "/pyvenv.cfg") + "\n";
  for (const char* pattern : {"/lib/python*/site-packages", "/lib/python*/dist-packages",
                              "/lib64/python*/site-packages", "/local/lib/python*/dist-packages"})
    for (const std::string& dir : glob_paths(p + pattern)) out += identity(dir, false) + "\n";
  return out;
}

// Where a Python's packages are: the site-packages and dist-packages folders of its prefix (the
// folder above its bin/, as found and as resolved), of a virtual or conda environment, of the
// user site and of /usr/local (Debian's pip); each PYTHONPATH entry. A package installed or
// removed changes its folder's times.
std::string python_packages(const std::string& found, const EnvVars& env) {
  std::vector<std::string> prefixes{fs::path(found).parent_path().parent_path().string()};
  std::error_code ec;
  const fs::path real = fs::canonical(found, ec);
  if (!ec) prefixes.push_back(real.parent_path().parent_path().string());
  for (const char* name : {"VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONUSERBASE", "PYTHONHOME"})
    if (const std::string v = var_value(env, name); !v.empty()) prefixes.push_back(v);
  if (const std::string home = var_value(env, "HOME"); !home.empty())
    prefixes.push_back(home + "/.local");
  prefixes.push_back("/usr/local");
  prefixes.push_back("/usr");
  std::sort(prefixes.begin(), prefixes.end());
  prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
  std::string out;
  for (const std::string& p : prefixes) out += prefix_packages(p);
  for (const std::string& entry : split(var_value(env, "PYTHONPATH"), ':'))
    out += identity(entry, false) + "\n";
  return out;
}

// What a version manager's shim runs, as far as files say: found is `<root>/shims/<tool>`, a
// script that hands over to `pyenv exec` or `asdf exec`. pyenv takes PYENV_VERSION, else the
// first `.python-version` from PYENV_DIR (else the working directory) up to /, else
// `<root>/version` (pyenv's libexec/pyenv-version-file and pyenv-version-name, github.com/pyenv/
// pyenv), and runs `<root>/versions/<version>/bin/<tool>`, or for "system" the next one in PATH;
// asdf reads `.tool-versions` the same way up from the working directory, then $HOME's, and runs
// `<root>/installs/<plugin>/<version>` (asdf-vm.com, "Configuration"). So the fingerprint takes
// every such file on the way up (a missing one too: creating it changes the choice), the global
// ones, each installed version with its package folders, and the tool PATH has after the shims.
// The variables (PYENV_VERSION, PYENV_DIR, ASDF_*) are in the common part. "" when root has
// neither versions/ nor installs/: a manager of another kind, whose probes are never kept.
std::string version_manager_inputs(const std::string& found, const std::string& workdir,
                                   const EnvVars& env) {
  const fs::path shims = fs::path(found).parent_path();
  const std::string root = shims.parent_path().string();
  std::error_code ec;
  if (!fs::is_directory(root + "/versions", ec) && !fs::is_directory(root + "/installs", ec))
    return "";
  std::string out = "version manager " + root + "\n";
  std::vector<fs::path> starts;
  if (const std::string dir = var_value(env, "PYENV_DIR"); !dir.empty()) starts.emplace_back(dir);
  starts.push_back(fs::absolute(workdir.empty() ? fs::path(".") : fs::path(workdir), ec));
  for (fs::path d : starts)
    for (d = d.lexically_normal();; d = d.parent_path()) {
      for (const char* name : {"/.python-version", "/.tool-versions"})
        out += identity((d == "/" ? std::string() : d.string()) + name) + "\n";
      if (d == d.parent_path() || d.empty()) break;
    }
  if (const std::string home = var_value(env, "HOME"); !home.empty())
    out += identity(home + "/.tool-versions") + "\n" + identity(home + "/.asdfrc") + "\n";
  out += identity(root + "/version") + "\n";
  for (const char* pattern : {"/versions", "/versions/*", "/installs/*", "/installs/*/*"})
    for (const std::string& prefix : glob_paths(root + pattern))
      out += identity(prefix, false) + "\n" + prefix_packages(prefix);
  std::string rest;  // PATH without the shims: where "system" is found
  for (const std::string& entry : split(var_value(env, "PATH"), ':'))
    if (fs::path(entry).lexically_normal() != shims.lexically_normal())
      rest += (rest.empty() ? "" : ":") + entry;
  if (const std::string next = find_in_path(fs::path(found).filename().string(), rest);
      !next.empty())
    out += "after the shims " + identity(next) + "\n";
  return out;
}

// What else a tool reads besides itself, by tool.
std::string tool_inputs(const ToolProbe& probe, const std::string& found, const EnvVars& env) {
  const std::string tool = fs::path(probe.argv.front()).filename().string();
  if (tool.rfind("python", 0) == 0) return python_packages(found, env);
  if (tool == "conda") {
    const std::string meta = var_value(env, "CONDA_PREFIX") + "/conda-meta";
    return identity(meta, false) + "\n" + identity(meta + "/history", false);
  }
  if (tool == "nvidia-smi") {
    std::string out = read_small("/proc/driver/nvidia/version");
    for (const std::string& dev : glob_paths("/dev/nvidia[0-9]*")) out += dev + "\n";
    return out;
  }
  if (tool == "rocm-smi") return read_small("/sys/module/amdgpu/version");
  return "";
}

}  // namespace

bool fingerprinted_variable(const std::string& name) {
  static const char* const kVolatile[] = {"PWD",
                                          "OLDPWD",
                                          "SHLVL",
                                          "_",
                                          "TERM",
                                          "COLORTERM",
                                          "COLUMNS",
                                          "LINES",
                                          "DISPLAY",
                                          "WINDOWID",
                                          "MAIL",
                                          "LS_COLORS",
                                          "GPG_TTY",
                                          "TMUX",
                                          "TMUX_PANE",
                                          "STY",
                                          "HISTFILE",
                                          "MASTER_ADDR",
                                          "MASTER_PORT",
                                          "WORLD_SIZE",
                                          "RANK",
                                          "LOCAL_RANK",
                                          "LOCAL_WORLD_SIZE",
                                          "XDG_RUNTIME_DIR",
                                          "DBUS_SESSION_BUS_ADDRESS",
                                          "INVOCATION_ID",
                                          "JOURNAL_STREAM"};
  static const char* const kVolatilePrefixes[] = {
      "SSH_",    "XDG_SESSION_", "TERM_", "SLURM_", "SLURMD_", "SBATCH_",          "SRUN_",
      "SALLOC_", "PBS_",         "FLUX_", "PMI_",   "PMIX_",   "OMPI_COMM_WORLD_", "AERUN_",
      "VSCODE_", "KITTY_"};
  for (const char* v : kVolatile)
    if (name == v) return false;
  for (const char* p : kVolatilePrefixes)
    if (name.rfind(p, 0) == 0) return false;
  return true;
}

ProbeFingerprints::ProbeFingerprints(const EnvVars& env, std::string workdir)
    : env_(env), workdir_(std::move(workdir)) {
  common_ = std::string(kFingerprintVersion) + "\n";
  utsname u{};
  if (::uname(&u) == 0) common_ += fmt::format("host {} {} {}\n", u.nodename, u.release, u.machine);
  common_ += "boot " + read_small("/proc/sys/kernel/random/boot_id") + "\n";
  common_ += fmt::format("user {}\nworkdir {}\n", ::geteuid(), workdir_);
  std::vector<std::string> vars;
  for (const auto& v : env)
    if (fingerprinted_variable(v.name)) vars.push_back(v.name + "=" + v.value);
  std::sort(vars.begin(), vars.end());
  for (const auto& v : vars) common_ += "env " + v + "\n";
}

std::string ProbeFingerprints::of(const ToolProbe& probe) {
  if (probe.argv.empty()) return "";
  const std::string found = find_in_path(probe.argv.front(), var_value(env_, "PATH"));
  if (found.empty()) return "";
  std::string text = common_ + "probe " + probe.name + "\n";
  if (fs::path(found).parent_path().filename() == "shims") {
    auto shim = inputs_.find("shim " + found);
    if (shim == inputs_.end())
      shim = inputs_.emplace("shim " + found, version_manager_inputs(found, workdir_, env_)).first;
    if (shim->second.empty()) return "";
    text += shim->second;
  }
  for (const auto& a : probe.argv) text += "arg " + a + "\n";
  text += "tool " + identity(found) + "\n";
  std::error_code ec;
  if (const fs::path real = fs::canonical(found, ec); !ec && real != fs::path(found))
    text += "resolved " + identity(real.string()) + "\n";
  const std::string kind = fs::path(probe.argv.front()).filename().string() + " " + found;
  auto it = inputs_.find(kind);
  if (it == inputs_.end()) it = inputs_.emplace(kind, tool_inputs(probe, found, env_)).first;
  text += it->second;
  return sha256_hex(text);
}

}  // namespace aerun
