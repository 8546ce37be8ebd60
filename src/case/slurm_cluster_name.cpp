#include "case/slurm_cluster_name.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace aerun {

namespace {

constexpr off_t kMaxConfBytes = 1 << 20;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A regular file's text, "" when it is not one, is larger than the cap or cannot be read.
std::string small_regular_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return "";
  std::string text;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= kMaxConfBytes) {
    text.resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    text.resize(got);
  }
  ::close(fd);
  return text;
}

}  // namespace

std::string slurm_cluster_in_conf(std::string_view text) {
  std::string name;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key(trim(line.substr(0, eq)));
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (key != "clustername") continue;
    name = trim(line.substr(eq + 1));  // the last one wins, as in slurm.conf
  }
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

SlurmClusterHere slurm_cluster_here() {
  if (const char* c = std::getenv("SLURM_CLUSTER_NAME"); c && *c) return {c, "SLURM_CLUSTER_NAME"};
  std::string conf = "/etc/slurm/slurm.conf";
  if (const char* c = std::getenv("SLURM_CONF"); c && *c) conf = c;
  for (const std::string& path : {conf, std::string("/run/slurm/conf/slurm.conf")}) {
    const std::string name = slurm_cluster_in_conf(small_regular_file(path));
    if (!name.empty()) return {name, path};
    if (path == conf && std::getenv("SLURM_CONF")) break;  // the commands read that one only
  }
  return {};
}

}  // namespace aerun
