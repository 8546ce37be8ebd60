#include <errno.h>
#include <string.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aerun/run/executor.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/process_identity.hpp"

namespace aerun {

namespace {

class SystemProcess final : public Process {
 public:
  explicit SystemProcess(const ChildProcess::Options& opts) : child_(opts) {}
  int pid() const override { return child_.pid(); }
  int output_fd() const override { return child_.output_fd(); }
  void close_output() override { child_.close_output(); }
  void signal_group(int sig) override { child_.signal_group(sig); }
  bool try_wait() override { return child_.try_wait(); }
  bool exited() const override { return child_.exited(); }
  const ChildProcess::Exit& exit() const override { return child_.exit(); }
  long long start_ticks() const override { return process_start_ticks(child_.pid()); }
  std::vector<int> output_holders() const override {
    std::vector<int> out;
    for (const int pid : pipe_holders(child_.output_fd()))
      if (::getpgid(pid) != child_.pid()) out.push_back(pid);
    return out;
  }

 private:
  ChildProcess child_;
};

class SystemExecutor final : public Executor {
 public:
  std::unique_ptr<Process> spawn(const ChildProcess::Options& opts) override {
    return std::make_unique<SystemProcess>(opts);
  }
  void wait(std::vector<pollfd>& fds, double deadline) override {
    const double left = deadline - aerun::mono_now();
    const int timeout_ms = std::max(0, static_cast<int>(std::ceil(left * 1000)));
    if (::poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR)
      throw SystemError(fmt::format("poll: {}", strerror(errno)));
  }
  double mono_now() override { return aerun::mono_now(); }
  double wall_now() override { return aerun::wall_now(); }
};

}  // namespace

Executor& system_executor() {
  static SystemExecutor e;
  return e;
}

}  // namespace aerun
