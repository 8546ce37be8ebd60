// Turns the stop signals (kStopSignals) and SIGCHLD into bytes on a pipe the runner polls
// (self-pipe trick); restores the previous handlers when the last one is destroyed.
//
// Watches nest: the outermost installs the handlers and the pipe, inner ones share them and
// the stop signal seen so far. A command that runs several loops one after another (a search's
// rounds) holds one across them, so a Ctrl-C between two loops is seen by the next check instead
// of killing aerun with the default action.
#pragma once

#include <signal.h>

#include <string>

namespace aerun {

// The signals that stop aerun's runs (each stopped and stored `interrupted`) instead of ending
// aerun with their default action: Ctrl-C, SIGTERM, a hang-up, and the others whose default is to
// terminate (a run's children get them back at their defaults).
inline constexpr int kStopSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGUSR1,  SIGUSR2,
                                       SIGALRM, SIGPWR,  SIGXCPU, SIGVTALRM};

class SignalWatch {
 public:
  SignalWatch();
  ~SignalWatch();
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;

  int fd() const;  // readable when a signal arrived
  // Reads what arrived; returns the first stop signal seen (kStopSignals) or 0.
  int drain();
  // The stop signal received so far by any watch of this nest (0 if none).
  int stop_signal() const;
};

// "SIGINT", "SIGTERM", ...; "signal N" for a number without a name.
std::string signal_name(int sig);

}  // namespace aerun
