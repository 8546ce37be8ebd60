#include "aerun/run/child_process.hpp"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "aerun/run/signal_watch.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/process_identity.hpp"
#include "aerun/util/spawn_setup.hpp"

namespace aerun {

namespace {

std::vector<char*> c_array(const std::vector<std::string>& v) {
  std::vector<char*> out;
  out.reserve(v.size() + 1);
  for (const auto& s : v) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

double seconds(const timeval& tv) {
  return tv.tv_sec + tv.tv_usec / 1e6;
}

}  // namespace

ChildProcess::ChildProcess(const Options& opts) {
  if (opts.argv.empty()) throw SystemError("nothing to run");
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw SystemError(fmt::format("pipe: {}", strerror(errno)));
  SpawnSetup s;
  posix_spawnattr_setpgroup(&s.attr, 0);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&s.attr, &none);
  // Signals aerun handles must be back at their defaults in the child.
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGCHLD, SIGQUIT}) sigaddset(&defaults, sig);
  for (int sig : kStopSignals) sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&s.attr, &defaults);
  posix_spawnattr_setflags(&s.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_USEVFORK);
  posix_spawn_file_actions_addopen(&s.actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&s.actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&s.actions, fds[1], 2);
  if (!opts.cwd.empty()) posix_spawn_file_actions_addchdir_np(&s.actions, opts.cwd.c_str());
  auto argv = c_array(opts.argv);
  auto envp = c_array(opts.env);
  const int rc = posix_spawnp(&pid_, argv[0], &s.actions, &s.attr, argv.data(), envp.data());
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    pid_ = -1;
    throw SystemError(fmt::format("cannot start {}: {}", opts.argv[0], strerror(rc)));
  }
  out_fd_ = fds[0];
  fcntl(out_fd_, F_SETFL, fcntl(out_fd_, F_GETFL) | O_NONBLOCK);
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exit_) {
    signal_group(SIGKILL);
    reap(0);
  }
  close_output();
}

void ChildProcess::close_output() {
  if (out_fd_ >= 0) close(out_fd_);
  out_fd_ = -1;
}

void ChildProcess::signal_group(int sig) const {
  if (pid_ > 0) kill(-pid_, sig);
}

bool ChildProcess::try_wait() {
  return exit_ || reap(WNOHANG);
}

void ChildProcess::wait() {
  if (!exit_) reap(0);
}

bool ChildProcess::reap(int flags) {
  int status = 0;
  rusage ru{};
  pid_t r;
  do {
    r = wait4(pid_, &status, flags, &ru);
  } while (r < 0 && errno == EINTR);
  if (r <= 0) {
    if (r < 0 && errno == ECHILD) {  // reaped elsewhere: record an unknown end
      exit_ = Exit{};
      return true;
    }
    return false;
  }
  Exit e;
  if (WIFEXITED(status)) e.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) e.signal = WTERMSIG(status);
  e.user_cpu_s = seconds(ru.ru_utime);
  e.sys_cpu_s = seconds(ru.ru_stime);
  e.max_rss_kb = ru.ru_maxrss;
  exit_ = e;
  return true;
}

bool group_survives(int pgid, long long leader_start) {
  if (pgid <= 1 || ::kill(-pgid, 0) != 0) return false;  // no member left (or not ours)
  const long long now = process_start_ticks(pgid);
  return now == 0 || leader_start == 0 || now == leader_start;
}

bool stop_group(int pgid, long long leader_start, double grace_s) {
  if (!group_survives(pgid, leader_start)) return true;
  auto gone_within = [pgid](double s) {
    for (double waited = 0; waited < s; waited += 0.05) {
      if (::kill(-pgid, 0) != 0) return true;
      ::usleep(50000);
    }
    return ::kill(-pgid, 0) != 0;
  };
  ::kill(-pgid, SIGTERM);
  if (gone_within(grace_s)) return true;
  ::kill(-pgid, SIGKILL);
  return gone_within(5.0);
}

}  // namespace aerun
