#include "aerun/run/provenance.hpp"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "aerun/util/shell_quote.hpp"

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
struct PipeCloser {
  void operator()(FILE* f) const { pclose(f); }
};

std::string read_command(const std::string& cmd) {
  std::unique_ptr<FILE, PipeCloser> p(popen(cmd.c_str(), "r"));
  if (!p) return "";
  std::string out;
  char buf[256];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p.get())) > 0) out.append(buf, n);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}
}  // namespace

std::string git_commit(const std::string& dir) {
  const std::string q = shell_quote(dir);
  std::string head = read_command("git -C " + q + " rev-parse --verify -q HEAD 2>/dev/null");
  if (head.size() != 40) return "";
  const std::string dirty =
      read_command("git -C " + q + " status --porcelain --untracked-files=no 2>/dev/null");
  return dirty.empty() ? head : head + "-dirty";
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
