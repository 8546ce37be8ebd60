#include "aerun/run/signal_watch.hpp"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "aerun/util/error.hpp"

namespace aerun {

namespace {
int g_pipe[2] = {-1, -1};

void on_signal(int sig) {
  const int saved = errno;
  const unsigned char b = static_cast<unsigned char>(sig);
  [[maybe_unused]] ssize_t n = write(g_pipe[1], &b, 1);
  errno = saved;
}
}  // namespace

SignalWatch::SignalWatch() {
  if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) throw SystemError("cannot create signal pipe");
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: blocking calls return EINTR so that Ctrl-C is seen at once
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
  // A hang-up (the ssh session or terminal gone) stops the runs as SIGTERM does: each run is
  // stopped and stored `interrupted`, not left running unsupervised with its output lost.
  sigaction(SIGHUP, &sa, &old_hup_);
  sa.sa_flags = SA_NOCLDSTOP;
  sigaction(SIGCHLD, &sa, &old_chld_);
}

SignalWatch::~SignalWatch() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
  sigaction(SIGHUP, &old_hup_, nullptr);
  sigaction(SIGCHLD, &old_chld_, nullptr);
  close(g_pipe[0]);
  close(g_pipe[1]);
  g_pipe[0] = g_pipe[1] = -1;
}

int SignalWatch::fd() const {
  return g_pipe[0];
}

int SignalWatch::drain() {
  unsigned char buf[64];
  ssize_t n;
  while ((n = read(g_pipe[0], buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n; ++i)
      if ((buf[i] == SIGINT || buf[i] == SIGTERM || buf[i] == SIGHUP) && stop_ == 0) stop_ = buf[i];
  return stop_;
}

}  // namespace aerun
