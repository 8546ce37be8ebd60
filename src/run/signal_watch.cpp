#include "aerun/run/signal_watch.hpp"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <fmt/format.h>

#include <iterator>

#include "aerun/util/error.hpp"

namespace aerun {

namespace {
// One nest of watches per process, on the main thread: its pipe, depth, stop signal and the
// handlers it replaced.
int g_pipe[2] = {-1, -1};
int g_depth = 0;
int g_stop = 0;
struct sigaction g_old_chld {};
struct sigaction g_old_stop[std::size(kStopSignals)] = {};

void on_signal(int sig) {
  const int saved = errno;
  const unsigned char b = static_cast<unsigned char>(sig);
  [[maybe_unused]] ssize_t n = write(g_pipe[1], &b, 1);
  errno = saved;
}
}  // namespace

SignalWatch::SignalWatch() {
  if (g_depth > 0) {
    ++g_depth;
    return;
  }
  if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) throw SystemError("cannot create signal pipe");
  g_depth = 1;
  g_stop = 0;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: blocking calls return EINTR so that Ctrl-C is seen at once
  // A hang-up (the ssh session or terminal gone) stops the runs as SIGTERM does: each run is
  // stopped and stored `interrupted`, not left running unsupervised with its output lost; so do
  // the other signals whose default would end aerun alone (issue 40's fourth pass: Slurm's
  // `--signal` sends USR1 before a job's time limit, RLIMIT_CPU sends XCPU).
  for (size_t i = 0; i < std::size(kStopSignals); ++i)
    sigaction(kStopSignals[i], &sa, &g_old_stop[i]);
  sa.sa_flags = SA_NOCLDSTOP;
  sigaction(SIGCHLD, &sa, &g_old_chld);
}

SignalWatch::~SignalWatch() {
  if (--g_depth > 0) return;
  for (size_t i = 0; i < std::size(kStopSignals); ++i)
    sigaction(kStopSignals[i], &g_old_stop[i], nullptr);
  sigaction(SIGCHLD, &g_old_chld, nullptr);
  close(g_pipe[0]);
  close(g_pipe[1]);
  g_pipe[0] = g_pipe[1] = -1;
  g_stop = 0;
}

int SignalWatch::fd() const {
  return g_pipe[0];
}

int SignalWatch::drain() {
  unsigned char buf[64];
  ssize_t n;
  while ((n = read(g_pipe[0], buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n; ++i)
      if (buf[i] != SIGCHLD && g_stop == 0) g_stop = buf[i];
  return g_stop;
}

int SignalWatch::stop_signal() const {
  return g_stop;
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

}  // namespace aerun
