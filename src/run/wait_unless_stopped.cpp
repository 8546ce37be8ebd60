#include <poll.h>

#include <vector>

#include "aerun/run/executor.hpp"
#include "aerun/run/signal_watch.hpp"

namespace aerun {

int wait_unless_stopped(Executor& exec, SignalWatch& signals, double until) {
  std::vector<pollfd> fds{{signals.fd(), POLLIN, 0}};
  for (;;) {
    if (const int s = signals.drain()) return s;
    if (exec.mono_now() >= until) return 0;
    exec.wait(fds, until);
  }
}

}  // namespace aerun
