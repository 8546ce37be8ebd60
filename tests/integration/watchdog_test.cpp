// Live run health (issue 18): a run that stops making progress, or never reaches its first step,
// is stopped with its whole process group and stored as stalled / startup_timeout; both are
// transient (run again by the next `aerun case`).
#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// mode hang: three steps, then a child that never returns (an NCCL collective); slow: steps
// every 0.3 s for 3 s (never stalled at 1 s); late: the first step never comes.
const char* kCase = R"yaml(case: health
params: {mode: [hang, slow, late]}
command: |
  echo run >> count-{mode}
  if [ {mode} = late ]; then sleep 60; fi
  n=3; [ {mode} = slow ] && n=10
  for i in $(seq 1 $n); do echo "step $i loss 2.$i"; sleep 0.3; done
  if [ {mode} = hang ]; then sleep 60 & echo $! > child-pid; wait; fi
  echo done
metrics:
  step: {regex: 'step (\d+)', progress: true}
startup: 'step 1'
stall: 1s
first_step: 2s
)yaml";

int runs_of(const TempDir& d, const std::string& mode) {
  const std::string t = read_file(d / ("count-" + mode));
  return static_cast<int>(std::count(t.begin(), t.end(), '\n'));
}

}  // namespace

TEST(Watchdog, AStalledRunAndALateOneAreStoppedAndStoredForWhatTheyAre) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_aerun(d, {"case", "c.yaml", "-j", "3"});
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_LT(wall, 20) << "the watchdogs did not stop the runs (their sleeps last 60 s)";
  const std::string db = d / "results/aerun.db";
  auto status = [&](const std::string& mode) {
    return sql1(db,
                "SELECT r.status || ' | ' || r.reason FROM runs r JOIN run_params p ON "
                "p.run_id=r.id WHERE p.name='mode' AND p.value='" +
                    mode + "'");
  };
  EXPECT_THAT(status("hang"),
              HasSubstr("stalled | no progress for 1 s after line 3: step 3 loss 2.3"));
  EXPECT_THAT(status("late"), HasSubstr("startup_timeout | no first step within 2 s of the start"));
  EXPECT_THAT(status("slow"), HasSubstr("ok |"));
  // The whole process group went: the hung child too.
  const int child = std::stoi(read_file(d / "child-pid"));
  EXPECT_TRUE(eventually([&] { return kill(child, 0) != 0; }, 5)) << "child " << child << " alive";
  // Both are transient: the next `aerun case` runs them again, not the ok one.
  run_aerun(d, {"case", "c.yaml", "-j", "3"});
  EXPECT_EQ(runs_of(d, "hang"), 2);
  EXPECT_EQ(runs_of(d, "late"), 2);
  EXPECT_EQ(runs_of(d, "slow"), 1);
}

TEST(Watchdog, TheCommandLineOverridesOrTurnsThemOff) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  const auto r = run_aerun(d, {"case", "c.yaml", "--only", "mode=slow", "--stall", "0.2s"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(sql1(d / "results/aerun.db", "SELECT status FROM runs"), "stalled");
  TempDir e;
  write_file(e / "c.yaml", kCase);
  const auto off =
      run_aerun(e, {"case", "c.yaml", "--only", "mode=slow", "--stall", "0", "--first-step", "0"});
  EXPECT_EQ(off.code, 0) << off.err;
}

TEST(Watchdog, AStallWithoutAProgressMetricIsABadCase) {
  TempDir d;
  write_file(d / "c.yaml", "case: s\ncommand: echo hi\nmetrics: {t: 't=(\\d+)'}\nstall: 10m\n");
  auto r = run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("c.yaml:4:8: stall: a stall is a time without progress lines"));
  write_file(d / "c.yaml", "case: s\ncommand: echo hi\nfirst_step: 20m\n");
  r = run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("first_step: the first step is seen by the case's `startup`"));
}

// `stall: "{stall}"`: each point its own value, filled like any placeholder; a bad value names
// the key, the template and the point.
TEST(Watchdog, EachPointMayHaveItsOwnStall) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: perpoint
params:
  stall: [0.5s, 30]
command: for i in 1 2 3; do echo "step $i"; sleep 1; done
metrics:
  step: {regex: 'step (\d+)', progress: true}
stall: "{stall}"
)yaml");
  const auto r = run_aerun(d, {"case", "c.yaml", "-j", "2"});
  EXPECT_EQ(r.code, 1) << r.err;
  const auto rows = sql(d / "results/aerun.db",
                        "SELECT p.value, r.status, r.reason FROM runs r JOIN run_params p ON "
                        "p.run_id=r.id ORDER BY p.value");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][0], "0.5s");
  EXPECT_EQ(rows[0][1], "stalled");
  EXPECT_THAT(rows[0][2], HasSubstr("no progress for 0.5 s after line 1: step 1"));
  EXPECT_EQ(rows[1][1], "ok");  // 30 s: the 1 s gaps are no stall
  write_file(d / "c.yaml", R"yaml(case: perpoint
params:
  stall: [10s, soon]
command: echo "step 1"
metrics:
  step: {regex: 'step (\d+)', progress: true}
stall: "{stall}"
)yaml");
  const auto bad = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("c.yaml:7:8: stall: "));
  EXPECT_THAT(bad.err, HasSubstr("(from '{stall}' at the point stall=soon)"));
}

TEST(LiveProgress, WithoutATerminalALineMarksEachTenthOfARun) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: tenths
params: {x: [1]}
command: |
  for i in 1 2 3 4 5 6 7 8 9 10; do
    echo " iteration $i/ 10 | elapsed time per iteration (ms): 5.0 |"; sleep 0.3
  done
  sleep 0.5
presets: [megatron]
)yaml");
  const auto r = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(": iteration 5/10 (50%), "));
  EXPECT_THAT(r.err, HasSubstr(": iteration 10/10 (100%), "));
  EXPECT_THAT(r.err, HasSubstr("/s, ETA "));
}
