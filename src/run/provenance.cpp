#include "aerun/run/provenance.hpp"

#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

#include "aerun/util/captured_command.hpp"

namespace aerun {

std::string self_binary() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "aerun" : p.string();
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

namespace {
// What git says in dir (its own process, no shell), the line ends trimmed; "" when it failed.
std::string git_output(const std::string& dir, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", dir});
  const CommandResult r = run_captured(args, 30);
  if (!r.ok()) return "";
  std::string out = r.out;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// Whether git could find a repository from dir: a .git (folder or file) in it or a folder above,
// or a bare repository's own files, or $GIT_DIR. When not, git is not started (~10 ms).
bool may_be_in_repository(const std::string& dir) {
  if (const char* g = std::getenv("GIT_DIR"); g && *g) return true;
  std::error_code ec;
  for (std::filesystem::path p = std::filesystem::absolute(dir, ec); !ec && !p.empty();
       p = p.parent_path()) {
    if (std::filesystem::exists(p / ".git", ec)) return true;
    if (std::filesystem::exists(p / "HEAD", ec) && std::filesystem::exists(p / "objects", ec))
      return true;
    if (p == p.parent_path()) break;
  }
  return false;
}

std::string ask_git_commit(const std::string& dir) {
  if (!may_be_in_repository(dir)) return "";
  std::string head = git_output(dir, {"rev-parse", "--verify", "-q", "HEAD"});
  if (head.size() != 40) return "";
  const std::string dirty = git_output(dir, {"status", "--porcelain", "--untracked-files=no"});
  return dirty.empty() ? head : head + "-dirty";
}
}  // namespace

std::string git_commit(const std::string& dir) {
  // The session and the runs of one invocation ask within moments: git is asked once for them
  // (each git costs ~10 ms, a fifth of a one-run case).
  static std::mutex mutex;
  static std::map<std::string, std::pair<double, std::string>> asked;
  {
    std::lock_guard lock(mutex);
    if (auto it = asked.find(dir); it != asked.end() && mono_now() - it->second.first < 5)
      return it->second.second;
  }
  std::string commit = ask_git_commit(dir);
  std::lock_guard lock(mutex);
  asked[dir] = {mono_now(), commit};
  return commit;
}

double wall_now() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

double mono_now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

}  // namespace aerun
