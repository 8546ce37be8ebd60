// SignalWatch: signals become bytes on a pipe; watches nest, and the outermost gives the process
// its handlers back.
#include "aerun/run/signal_watch.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>

namespace aerun {
namespace {

volatile sig_atomic_t g_seen = 0;
void note(int sig) {
  g_seen = sig;
}

bool readable(const SignalWatch& w) {
  pollfd p{w.fd(), POLLIN, 0};
  return poll(&p, 1, 0) == 1;
}

TEST(SignalWatch, ASignalIsAByteOnThePipeAndAStopSignalIsKept) {
  SignalWatch w;
  EXPECT_EQ(w.stop_signal(), 0);
  raise(SIGTERM);
  EXPECT_TRUE(readable(w));
  EXPECT_EQ(w.drain(), SIGTERM);
  EXPECT_FALSE(readable(w));
  raise(SIGINT);  // the first stop signal is the one kept
  EXPECT_EQ(w.drain(), SIGTERM);
  EXPECT_EQ(w.stop_signal(), SIGTERM);
}

// A search holds a watch across its rounds, each round's loop one of its own: a Ctrl-C after a
// round's loop ended is the search's to see, not lost, and not the default action (death).
TEST(SignalWatch, ASignalAfterAnInnerWatchEndedReachesTheOuterOne) {
  SignalWatch outer;
  { SignalWatch round; }
  raise(SIGINT);
  EXPECT_EQ(outer.drain(), SIGINT);
}

TEST(SignalWatch, AStopAnInnerWatchSawIsTheOuterOnesToo) {
  SignalWatch outer;
  {
    SignalWatch round;
    raise(SIGHUP);
    EXPECT_EQ(round.drain(), SIGHUP);
  }
  EXPECT_EQ(outer.stop_signal(), SIGHUP);
}

TEST(SignalWatch, TheOutermostRestoresThePreviousHandlerAndANewNestStartsClean) {
  struct sigaction mine {
  }, before{};
  mine.sa_handler = note;
  sigemptyset(&mine.sa_mask);
  sigaction(SIGINT, &mine, &before);
  {
    SignalWatch outer;
    {
      SignalWatch inner;
      raise(SIGINT);
    }
    EXPECT_EQ(g_seen, 0);
    EXPECT_EQ(outer.drain(), SIGINT);
  }
  raise(SIGINT);
  EXPECT_EQ(g_seen, SIGINT);
  SignalWatch fresh;
  EXPECT_EQ(fresh.stop_signal(), 0);
  sigaction(SIGINT, &before, nullptr);
}

}  // namespace
}  // namespace aerun
