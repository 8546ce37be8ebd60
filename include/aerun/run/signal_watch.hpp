// Turns SIGINT, SIGTERM, SIGHUP and SIGCHLD into bytes on a pipe the runner polls (self-pipe
// trick); restores the previous handlers when destroyed.
#pragma once

#include <signal.h>

namespace aerun {

class SignalWatch {
 public:
  SignalWatch();
  ~SignalWatch();
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;

  int fd() const;  // readable when a signal arrived
  // Reads what arrived; returns the first stop signal seen (SIGINT/SIGTERM/SIGHUP) or 0.
  int drain();
  // The stop signal received so far (0 if none).
  int stop_signal() const { return stop_; }

 private:
  struct sigaction old_int_ {
  }, old_term_{}, old_hup_{}, old_chld_{};
  int stop_ = 0;
};

}  // namespace aerun
