// Polite polling on a real Slurm (issue 12): the calls to `squeue` are counted through a PATH
// shim while aerun follows a job array. A count, not a timing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>

#include "slurm_cluster.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

class SlurmPolling : public SlurmTest {
 protected:
  // A PATH whose `squeue` logs each call (with its time) to squeue.calls, then runs the real one.
  std::string counting_env() {
    const std::string real = trimmed(command_output("command -v squeue"));
    const std::string shim = dir_ / "shim";
    fs::create_directories(shim);
    write_file(shim + "/squeue", "#!/bin/sh\ndate +%s.%N >> " +
                                     aerun::shell_quote(dir_ / "squeue.calls") + "\nexec " +
                                     aerun::shell_quote(real) + " \"$@\"\n");
    ::chmod((shim + "/squeue").c_str(), 0755);
    return "PATH=" + aerun::shell_quote(shim + ":" + std::getenv("PATH"));
  }
  int calls() {
    const std::string t = read_file(dir_ / "squeue.calls");
    return static_cast<int>(std::count(t.begin(), t.end(), '\n'));
  }
  static std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
  }
};

}  // namespace

TEST_F(SlurmPolling, AHundredTaskArrayIsFollowedWithAboutOneQueryASecond) {
  write_file(dir_ / "c.yaml", R"(case: hundred
params:
  i: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
      25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
      48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70,
      71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93,
      94, 95, 96, 97, 98, 99]
command: echo "step 1 i={i}"; sleep 1
resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}
)");
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"}, counting_env());
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "100");
  // One query per interval (1 s, growing by half while nothing finishes): about one a second
  // while tasks keep finishing. The issue saw ~105 a second.
  EXPECT_LE(calls(), 60) << "in " << wall << " s";
  EXPECT_LE(calls(), static_cast<int>(wall) + 3) << "in " << wall << " s";
  std::cout << "[ figures  ] 100-task array: " << calls() << " squeue calls in " << wall << " s\n";
}

TEST_F(SlurmPolling, APollIntervalFromTheCommandLineSpacesTheQueries) {
  write_file(dir_ / "c.yaml", R"(case: spaced
params: {i: [0, 1]}
command: sleep 8
resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}
poll_interval: 1s
)");
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm", "--poll-interval", "4s..4s"},
                       counting_env());
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.code, 0) << r.err;
  // The command line beats the case's 1 s: one query every 4 s (+ the first, + one final look).
  EXPECT_LE(calls(), static_cast<int>(wall / 4) + 2) << "in " << wall << " s";
  EXPECT_GE(wall, 8);
}

TEST_F(SlurmPolling, ASitesFloorIsNeverUndercut) {
  write_file(dir_ / "c.yaml", R"(case: floor
params: {i: [0]}
command: sleep 6
resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}
poll_interval: 0.2s
)");
  const auto t0 = std::chrono::steady_clock::now();
  const auto r =
      aerun({"case", "c.yaml", "--scheduler", "slurm"}, counting_env() + " AERUN_POLL_MIN=3s");
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("this site's AERUN_POLL_MIN is 3s"));
  EXPECT_LE(calls(), static_cast<int>(wall / 3) + 2) << "in " << wall << " s";
}

// `aerun watch` on batch jobs (issue 18): the scheduler's own view (running on which node,
// pending and why, ended but not collected) beside the logs' progress, asked with the follower's
// backoff however fast the view refreshes.
TEST_F(SlurmPolling, WatchShowsJobsAsTheSchedulerSeesThemAndAsksPolitely) {
  if (!TmuxTerminal::available())
    GTEST_SKIP() << "tmux is not installed (scripts/install-deps.sh --test installs it)";
  // Each job takes a whole node (2 CPUs): two run, the third waits for one.
  write_file(dir_ / "c.yaml", R"yaml(case: watched
params: {i: [0, 1, 2]}
command: |
  for s in 10 20 30; do
    echo " iteration       $s/     100 | elapsed time per iteration (ms): 12.5 | lm loss: 2.5E+00 |"
  done
  sleep 8
presets: [megatron]
resources: {nodes: 1, tasks_per_node: 1, cpus_per_task: 2, walltime: 5m, partition: debug}
)yaml");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait"}).code, 0);
  Result once;
  ASSERT_TRUE(eventually(
      [&] {
        once = aerun({"watch", "watched", "--once"});
        return once.out.find("30/100 (30%)") != std::string::npos &&
               once.out.find("pending") != std::string::npos;
      },
      30))
      << once.out << once.err;
  EXPECT_THAT(once.out, HasSubstr("aerun watch watched: 2 running, 1 pending at "));
  EXPECT_THAT(once.out,
              ::testing::ContainsRegex(R"([0-9a-f]{12}  running +n[12] +30/100 \(30%\))"));
  EXPECT_THAT(once.out, ::testing::ContainsRegex(R"([0-9a-f]{12}  pending +- +- .* PENDING \()"));
  // Live in a terminal, refreshing 5 times a second until every job has ended: the scheduler is
  // asked at the follower's pace (1 s, growing by half while nothing changes), not 5 times a
  // second.
  const auto t0 = std::chrono::steady_clock::now();
  std::string screen;
  {
    TmuxTerminal term("cd " + aerun::shell_quote(dir_.path().string()) + " && " +
                          SlurmCluster::env() + " " + counting_env() + " " +
                          aerun::shell_quote(AERUN_BINARY) +
                          " watch watched --interval 0.2; echo WATCH-ENDED; sleep 60",
                      "swatch");
    ASSERT_TRUE(term.started());
    EXPECT_TRUE(term.shows("WATCH-ENDED", 90, &screen)) << screen;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_THAT(screen, HasSubstr("0 running, 0 pending, 3 ended"));
  EXPECT_THAT(screen, HasSubstr("COMPLETED: `aerun collect` stores it"));
  EXPECT_LE(calls(), static_cast<int>(wall) + 2) << "in " << wall << " s";
  EXPECT_LT(calls(), static_cast<int>(wall / 0.2) / 2) << "in " << wall << " s";
  std::cout << "[ figures  ] watch over " << wall << " s at 5 refreshes/s: " << calls()
            << " squeue calls\n";
  // collect stores them; watch then has nothing to show.
  EXPECT_EQ(aerun({"collect"}).code, 0);
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "3");
  EXPECT_THAT(aerun({"watch", "watched", "--once"}).out, HasSubstr("nothing is running."));
}
