// A launched command: its own process group, stdout and stderr merged into one pipe, reaped with
// rusage.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace aerun {

class ChildProcess {
 public:
  struct Options {
    std::vector<std::string> argv;  // argv[0] is looked up in PATH
    std::vector<std::string> env;   // "NAME=value" entries: the child's whole environment
    std::string cwd;                // empty = inherit
  };
  // How the process ended.
  struct Exit {
    std::optional<int> code;    // exit status, when it exited
    std::optional<int> signal;  // terminating signal, when it was killed
    double user_cpu_s = 0;
    double sys_cpu_s = 0;
    long long max_rss_kb = 0;
  };

  // Spawns the child (posix_spawn: a new process group, stdin from /dev/null, stdout+stderr to a
  // non-blocking pipe). Throws SystemError when it cannot be started.
  explicit ChildProcess(const Options& opts);
  // A child still running is killed (its whole group) and reaped.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  // Read end of the output pipe, -1 once closed.
  int output_fd() const { return out_fd_; }
  void close_output();
  // Sends sig to the child's process group (the command and everything it started).
  void signal_group(int sig) const;
  // Reaps the child if it has ended (WNOHANG); true once it has.
  bool try_wait();
  // Blocks until the child ends.
  void wait();
  bool exited() const { return exit_.has_value(); }
  const Exit& exit() const { return *exit_; }

 private:
  bool reap(int flags);

  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::optional<Exit> exit_;
};

// What is left of a command whose aerun died (kill -9) while it ran: its process group, when it
// still has members and is the same group (its leader gone, or started at leader_start).
bool group_survives(int pgid, long long leader_start);

// Stops such a group: SIGTERM, SIGKILL after grace_s, then waits (a few seconds at most) until
// no member is left. Returns false when members remain (not ours to kill, or unkillable).
bool stop_group(int pgid, long long leader_start, double grace_s);

}  // namespace aerun
