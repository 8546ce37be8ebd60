// The kept tool probe results of one user on one host (include/aerun/probe/probe_cache.hpp).
#include "aerun/probe/probe_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace aerun {

namespace fs = std::filesystem;

namespace {

// Items kept at most (the oldest go first): one per tool and environment seen in max_age_s.
constexpr size_t kMaxEntries = 64;

double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// A `pip freeze` line that names a checkout (`-e git+...@commit`, `name @ file:///...`): its
// commit or files may have moved without any package folder changing.
bool names_a_checkout(const EnvItem& item) {
  if (item.name != "pip freeze") return false;
  std::istringstream in(item.text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("-e ", 0) == 0 || line.find(" @ file:") != std::string::npos) return true;
  return false;
}

}  // namespace

ProbeCache::ProbeCache(std::string path, double max_age_s)
    : path_(std::move(path)), max_age_s_(max_age_s) {
  if (!path_.empty()) load();
}

std::string ProbeCache::default_path(const EnvVars& env) {
  std::string dir = var_value(env, "AERUN_CACHE_DIR");
  if (dir.empty() && !var_value(env, "XDG_CACHE_HOME").empty())
    dir = var_value(env, "XDG_CACHE_HOME") + "/aerun";
  if (dir.empty() && !var_value(env, "HOME").empty())
    dir = var_value(env, "HOME") + "/.cache/aerun";
  if (dir.empty()) return "";
  utsname u{};
  const std::string host = ::uname(&u) == 0 ? u.nodename : "host";
  std::string safe;  // a host name as a file name
  for (const char c : host)
    safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return dir + "/env-probes-" + safe + ".json";
}

void ProbeCache::load() {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return;
  struct stat st {};
  const bool ours = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() &&
                    (st.st_mode & 077) == 0;
  std::string text;
  if (ours) {
    char buf[1 << 16];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
      text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  if (text.empty()) return;
  try {
    const auto j = nlohmann::json::parse(text);
    for (const auto& [fingerprint, e] : j.at("items").items())
      entries_[fingerprint] = {
          {e.at("name").get<std::string>(), "", e.at("text").get<std::string>()},
          e.at("taken").get<double>()};
  } catch (const std::exception&) {
    entries_.clear();  // a damaged file is started again
  }
}

std::optional<EnvItem> ProbeCache::find(const std::string& fingerprint) const {
  if (fingerprint.empty()) return std::nullopt;
  const auto it = entries_.find(fingerprint);
  if (it == entries_.end()) return std::nullopt;
  const double age = now_s() - it->second.taken;
  if (age < 0 || age > max_age_s_ || names_a_checkout(it->second.item)) return std::nullopt;
  return it->second.item;
}

void ProbeCache::keep(const std::string& fingerprint, const EnvItem& item) {
  if (!enabled() || fingerprint.empty() || !item.status.empty()) return;
  try {
    (void)nlohmann::json(item.text).dump();  // kept as it is, or not at all (not UTF-8)
  } catch (const std::exception&) {
    return;
  }
  entries_[fingerprint] = {item, now_s()};
  changed_ = true;
}

void ProbeCache::save() {
  if (!enabled() || !changed_) return;
  const double now = now_s();
  std::vector<std::pair<double, std::string>> by_age;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (now - it->second.taken > max_age_s_) {
      it = entries_.erase(it);
      continue;
    }
    by_age.emplace_back(it->second.taken, it->first);
    ++it;
  }
  std::sort(by_age.begin(), by_age.end());
  for (size_t i = 0; i + kMaxEntries < by_age.size(); ++i) entries_.erase(by_age[i].second);
  nlohmann::json items = nlohmann::json::object();
  for (const auto& [fingerprint, e] : entries_)
    items[fingerprint] = {{"name", e.item.name}, {"text", e.item.text}, {"taken", e.taken}};
  const std::string text = nlohmann::json{
      {"about", "aerun's kept tool probes (docs/provenance.md); safe to delete"},
      {"items",
       std::move(items)}}.dump(1);
  std::error_code ec;
  const fs::path dir = fs::path(path_).parent_path();
  fs::create_directories(dir, ec);
  if (ec) return;
  const std::string tmp = fmt::format("{}.{}.tmp", path_, ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  bool ok = true;
  for (size_t at = 0; ok && at < text.size();) {
    const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
    ok = n > 0;
    if (ok) at += static_cast<size_t>(n);
  }
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(tmp.c_str(), path_.c_str()) != 0) ::unlink(tmp.c_str());
  changed_ = false;
}

}  // namespace aerun
