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
