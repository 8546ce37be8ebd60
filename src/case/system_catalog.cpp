#include "aerun/case/system_catalog.hpp"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "case/slurm_cluster_name.hpp"

namespace aerun {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_colons(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t end = std::min(s.find(':', start), s.size());
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool glob(const std::string& pattern, const std::string& text) {
  return ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

SystemProfile builtin_local() {
  SystemProfile p;
  p.name = "local";
  p.title = "this machine, without a scheduler (built in)";
  p.file = "built in";
  p.scheduler = "local";
  return p;
}

}  // namespace

std::string shipped_systems_folder() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = self.parent_path().parent_path() / "share/aerun/systems";
    if (fs::is_directory(installed, ec)) return installed.string();
  }
  return AERUN_SOURCE_DIR "/systems";
}

std::vector<std::string> system_folders(const std::string& option) {
  std::vector<std::string> out = split_colons(option);
  if (const char* e = std::getenv("AERUN_SYSTEMS"); e && *e)
    for (auto& f : split_colons(e)) out.push_back(std::move(f));
  out.push_back(shipped_systems_folder());
  return out;
}

const SystemProfile* SystemCatalog::find(const std::string& name) const {
  for (const SystemProfile& p : profiles)
    if (p.name == name) return &p;
  return nullptr;
}

SystemCatalog load_system_catalog(const std::vector<std::string>& folders) {
  SystemCatalog c;
  std::map<std::string, std::string> seen;  // name -> file of the profile that has it
  for (const std::string& folder : folders) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) continue;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      if (p.extension() == ".yaml" && it->is_regular_file(ec)) files.push_back(p);
    }
    std::sort(files.begin(), files.end());
    std::map<std::string, std::string> here;
    for (const fs::path& f : files) {
      SystemProfile p = load_system_profile(f.string());
      if (const auto twin = here.find(p.name); twin != here.end())
        throw InputError(SourceLoc{p.file, 0, 0}, "name",
                         "system '" + p.name + "' is also defined by " + twin->second);
      here[p.name] = p.file;
      if (const auto first = seen.find(p.name); first != seen.end()) {
        c.hidden.push_back(p.name + " (" + p.file + ") hidden by " + first->second);
        continue;
      }
      seen[p.name] = p.file;
      c.profiles.push_back(std::move(p));
    }
  }
  if (!c.find("local")) c.profiles.push_back(builtin_local());
  return c;
}

MachineFacts MachineFacts::here() {
  MachineFacts f;
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) == 0) f.hostname = buf;
  f.variable = [](const std::string& name) -> std::optional<std::string> {
    if (const char* v = std::getenv(name.c_str())) return std::string(v);
    return std::nullopt;
  };
  // Inside a Slurm job its variable; on a login node its slurm.conf's ClusterName.
  const SlurmClusterHere cluster = slurm_cluster_here();
  f.slurm_cluster = cluster.name;
  f.slurm_cluster_from = cluster.from;
  return f;
}

std::string stored_system_name(const SystemProfile& p) {
  return stored_system_name(p.name);
}

std::string stored_system_name(const std::string& profile_name) {
  return profile_name == "local" ? std::string() : profile_name;
}

std::string system_named_by_host(const SystemCatalog& catalog, const std::string& host) {
  MachineFacts facts;
  facts.hostname = host;
  const SystemMatch m = recognise_system(catalog, facts);
  return m.profile ? stored_system_name(*m.profile) : std::string();
}

SystemMatch recognise_system(const SystemCatalog& catalog, const MachineFacts& facts) {
  SystemMatch m;
  const std::string host = facts.hostname.substr(0, facts.hostname.find('.'));
  for (const SystemProfile& p : catalog.profiles) {
    std::string why;
    for (const std::string& g : p.recognise.hostnames)
      if (why.empty() && !host.empty() && glob(g, host))
        why = "host name '" + host + "' matches '" + g + "'";
    for (const auto& [name, g] : p.recognise.variables) {
      if (!why.empty() || !facts.variable) break;
      if (const auto v = facts.variable(name); v && glob(g, *v))
        why = name + "='" + *v + "' matches '" + g + "'";
    }
    if (why.empty() && !p.recognise.slurm_cluster.empty() &&
        facts.slurm_cluster == p.recognise.slurm_cluster)
      why = "Slurm cluster '" + facts.slurm_cluster + "'" +
            (facts.slurm_cluster_from.empty() ? "" : " (" + facts.slurm_cluster_from + ")");
    if (why.empty()) continue;
    if (!m.profile) {
      m.profile = &p;
      m.why = why;
    } else {
      m.also.push_back(p.name);
    }
  }
  if (!m.profile) {
    m.profile = catalog.find("local");
    m.why = "no profile recognises this machine (host name '" + host + "')";
  }
  return m;
}

}  // namespace aerun
