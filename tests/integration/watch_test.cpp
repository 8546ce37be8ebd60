// `aerun watch`: the running runs of a case, read from the store and their logs as they are
// written. Its plain report (--once) is compared line by line; the live view is checked in a real
// terminal (tmux: a detached session, capture-pane).
#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// Megatron-style lines (the preset's counter gives iteration/total), then a long sleep.
const char* kCase = R"yaml(case: live
params: {x: [1]}
command: |
  for i in 10 20 30; do
    echo " iteration       $i/     100 | elapsed time per iteration (ms): 12.5 | lm loss: 2.5E+00 |"
  done
  echo started > started
  exec sleep 60
presets: [megatron]
)yaml";

}  // namespace

TEST(Watch, OnceReportsTheRunningRunsProgressRateAndLastValues) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  auto bg = start_aerun(d, {"case", "c.yaml"});
  ASSERT_TRUE(eventually([&] { return fs::exists(d / "started"); }));
  const auto r = run_aerun(d, {"watch", "live", "--once"});
  ASSERT_EQ(r.code, 0) << r.err;
  // The report with what changes from run to run (times, key, host, rate, ETA) masked.
  std::string masked = std::regex_replace(r.out, std::regex(R"(at \S+)"), "at TIME");
  masked = std::regex_replace(masked, std::regex(R"(\n[0-9a-f]{12} +running +\S+ +)"),
                              "\nKEY running HOST ");
  masked = std::regex_replace(masked, std::regex(R"(\) +[0-9.e+]+/s +\d+ s ago +[0-9:]+ +)"),
                              ") RATE AGO ETA ");
  EXPECT_EQ(masked,
            "aerun watch live: 1 running, 0 pending at TIME\n"
            "run           status    host         progress                  rate last output      "
            "ETA  last values\n"
            "KEY running HOST 30/100 (30%) RATE AGO ETA iteration=30 train_iters=100 "
            "iter_ms=12.5 lm_loss=2.5\n")
      << r.out;
  kill(bg->pid(), SIGINT);
  bg->wait();
  EXPECT_THAT(run_aerun(d, {"watch", "--once"}).out, HasSubstr("nothing is running."));
  EXPECT_EQ(run_aerun(d, {"watch", "nope", "--once"}).code, 2);
}

TEST(Watch, InATerminalItRefreshesInPlaceAndEndsWhenNothingRuns) {
  if (!TmuxTerminal::available())
    GTEST_SKIP() << "tmux is not installed (scripts/install-deps.sh --test installs it)";
  TempDir d;
  write_file(d / "c.yaml", kCase);
  auto bg = start_aerun(d, {"case", "c.yaml"});
  ASSERT_TRUE(eventually([&] { return fs::exists(d / "started"); }));
  TmuxTerminal term("cd " + aerun::shell_quote(d.path().string()) + " && " +
                        aerun::shell_quote(AERUN_BINARY) +
                        " watch live --interval 0.3; echo WATCH-ENDED; sleep 30",
                    "watch");
  ASSERT_TRUE(term.started());
  std::string screen;
  EXPECT_TRUE(term.shows("30/100 (30%)", 10, &screen)) << screen;
  EXPECT_THAT(screen, HasSubstr("aerun watch live: 1 running, 0 pending"));
  // Refreshed in place: the heading is on the screen once, at the top.
  EXPECT_EQ(screen.find("aerun watch live"), 0u) << screen;
  EXPECT_EQ(screen.find("aerun watch live", 1), std::string::npos) << screen;
  kill(bg->pid(), SIGINT);
  bg->wait();
  EXPECT_TRUE(term.shows("WATCH-ENDED", 10, &screen)) << screen;
  EXPECT_THAT(screen, HasSubstr("nothing is running."));
}
