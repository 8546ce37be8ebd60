// Interrupted cases: Ctrl-C stops the children and records them; kill -9 of aerun loses nothing.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/run/child_process.hpp"
#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

int count(const std::string& db, const std::string& where) {
  if (!fs::exists(db)) return 0;
  return std::stoi(sql1(db, "SELECT count(*) FROM runs WHERE " + where));
}

}  // namespace

TEST(Interrupt, KillMinus9ThenRunningAgainCompletesExactlyTheRest) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: six
params: {i: [1, 2, 3, 4, 5, 6]}
command: sleep 0.4; echo done {i} >> ran.txt
)yaml");
  const std::string db = d / "results/aerun.db";
  auto bg = start_aerun(d, {"case", "c.yaml"});
  ASSERT_TRUE(eventually([&] { return count(db, "status='ok'") >= 2; }));
  kill(bg->pid(), SIGKILL);
  bg->wait();
  const auto done_before =
      sql(db, "SELECT key, launch_time FROM runs WHERE status='ok' ORDER BY key");
  ASSERT_GE(done_before.size(), 2u);
  ASSERT_LT(done_before.size(), 6u);

  const auto r = run_aerun(d, {"case", "c.yaml"});  // continuing is the default
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count(db, "1"), 6);
  EXPECT_EQ(count(db, "status='ok'"), 6);
  EXPECT_EQ(sql1(db, "SELECT count(DISTINCT key) FROM runs"), "6");
  // The runs done before the kill were reused, not run again.
  for (const auto& row : done_before)
    EXPECT_EQ(sql1(db, "SELECT launch_time FROM runs WHERE key='" + row[0] + "'"), row[1]);
  EXPECT_THAT(r.err, HasSubstr(std::to_string(done_before.size()) + " reused"));
  // Every i ran to completion once, except the one killed mid-run which may have written twice.
  const std::string ran = read_file(d / "ran.txt");
  for (int i = 1; i <= 6; ++i) EXPECT_THAT(ran, HasSubstr("done " + std::to_string(i)));
}

namespace {

// Starts a case of `points` runs of `sleep 60`, two at once, sends aerun `sig` once both run, and
// checks that it stopped them, recorded them interrupted naming the signal, and exited 128+sig.
void expect_signal_stops_and_records(TempDir& d, int sig, const std::string& name, int points) {
  std::string values;
  for (int i = 1; i <= points; ++i) values += (i > 1 ? ", " : "") + std::to_string(i);
  write_file(d / "c.yaml", "case: long\nparams: {i: [" + values +
                               "]}\ncommand: echo $$ > pid-{i}; exec sleep 60\n");
  const std::string db = d / "results/aerun.db";
  auto bg = start_aerun(d, {"case", "c.yaml", "-j", "2"});
  ASSERT_TRUE(eventually([&] {
    return fs::exists(d / "pid-1") && fs::exists(d / "pid-2") && count(db, "status='running'") == 2;
  }));
  kill(bg->pid(), sig);
  bg->wait();
  ASSERT_TRUE(bg->exit().code.has_value()) << "aerun died of " << name;
  EXPECT_EQ(*bg->exit().code, 128 + sig);
  EXPECT_EQ(count(db, "status='interrupted'"), 2);
  EXPECT_THAT(sql1(db, "SELECT reason FROM runs LIMIT 1"), HasSubstr(name));
  for (const char* f : {"pid-1", "pid-2"}) {
    const int pid = std::stoi(read_file(d / f));
    EXPECT_TRUE(eventually([&] { return kill(pid, 0) != 0; }, 5))
        << "child " << pid << " still alive";
  }
}

}  // namespace

TEST(Interrupt, CtrlCStopsTheRunningChildrenAndRecordsThemAsInterrupted) {
  TempDir d;
  expect_signal_stops_and_records(d, SIGINT, "SIGINT", 3);
  // The third run never started; running again does the three.
  EXPECT_FALSE(fs::exists(d / "pid-3"));
}

// Issue 28: an ssh session that drops sends SIGHUP; aerun used to die at once, leaving its
// commands running unsupervised (their output lost) and their rows stale. It stops them and
// records them as Ctrl-C does.
TEST(Interrupt, AHangUpStopsTheRunningChildrenAndRecordsThemAsInterrupted) {
  TempDir d;
  expect_signal_stops_and_records(d, SIGHUP, "SIGHUP", 2);
}

// A real (not dry) run of a big sweep streams its runs: memory stays bounded while it runs, and
// Ctrl-C's summary tells the runs it stopped from those it never started.
TEST(Interrupt, ABigSweepRunsInBoundedMemoryAndCtrlCCountsWhatNeverStarted) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: big
params:
  a: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
  b: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
  c: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
  d: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
command: echo "a long command line that every planned run carries with it {a} {b} {c} {d}"; exec sleep 60
)yaml");  // 160,000 runs
  const std::string db = d / "results/aerun.db";
  aerun::ChildProcess::Options o;  // aerun itself (exec), its stderr kept in a file
  o.argv = {"/bin/sh", "-c", "exec \"$0\" case c.yaml -j 2 2> err.txt", AERUN_BINARY};
  for (char** e = environ; *e; ++e) o.env.emplace_back(*e);
  o.cwd = d.path().string();
  auto bg = std::make_unique<aerun::ChildProcess>(o);
  ASSERT_TRUE(eventually([&] { return count(db, "status='running'") == 2; }, 60));
  // Peak resident memory so far (the whole plan was counted, and the first runs queued).
  long hwm_kb = 0;
  {
    std::ifstream st("/proc/" + std::to_string(bg->pid()) + "/status");
    for (std::string line; std::getline(st, line);)
      if (line.rfind("VmHWM:", 0) == 0) hwm_kb = std::stol(line.substr(6));
  }
  kill(bg->pid(), SIGINT);
  bg->wait();
  EXPECT_EQ(*bg->exit().code, 130);
  EXPECT_GT(hwm_kb, 0);
  if (!kAddressSanitizer) {
    EXPECT_LT(hwm_kb, 40 * 1024) << "a queued plan of 160,000 runs is held in memory";
  }
  EXPECT_THAT(read_file(d / "err.txt"),
              HasSubstr("0 ok, 0 failed, 0 reused, 2 interrupted, 159998 not started"));
  EXPECT_EQ(count(db, "1"), 2);
}

TEST(Interrupt, RowsLeftRunningByADeadAerunAreStaleThenRedone) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: one
command: if [ -e again ]; then echo second; else touch again; echo $$ > pid; exec sleep 60; fi
)yaml");
  write_file(d / "other.yaml", "case: other\ncommand: echo other\n");
  const std::string db = d / "results/aerun.db";
  auto bg = start_aerun(d, {"case", "c.yaml"});
  ASSERT_TRUE(
      eventually([&] { return count(db, "status='running'") == 1 && fs::exists(d / "pid"); }));
  kill(bg->pid(), SIGKILL);
  bg->wait();
  kill(std::stoi(read_file(d / "pid")), SIGKILL);  // the orphaned child: end it ourselves
  // Reading the store shows the claim of the dead aerun as stale (and writes nothing).
  const auto listed = run_aerun(d, {"runs", "--case", "one", "--format", "csv"});
  EXPECT_THAT(listed.out, HasSubstr("stale"));
  EXPECT_EQ(sql1(db, "SELECT status FROM runs WHERE case_name='one'"), "running");
  // Any later aerun on this host marks it so.
  ASSERT_EQ(run_aerun(d, {"case", "other.yaml"}).code, 0);
  EXPECT_EQ(sql1(db, "SELECT status FROM runs WHERE case_name='one'"), "stale");
  EXPECT_THAT(sql1(db, "SELECT reason FROM runs WHERE case_name='one'"), HasSubstr("disappeared"));
  // Running the case again redoes it under the same key.
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  EXPECT_EQ(sql1(db, "SELECT status || ' ' || attempt FROM runs WHERE case_name='one'"), "ok 2");
}

TEST(Interrupt, AfterKillMinus9WhatARunLeftRunningIsStoppedBeforeItRunsAgain) {
  TempDir d;
  // The first attempt leaves a quiet child behind (it never writes, so no SIGPIPE ends it).
  write_file(d / "c.yaml", R"yaml(case: one
command: if [ "$AERUN_ATTEMPT" = 1 ]; then echo $$ > pid; sleep 60; echo finished >> ran.txt; else echo second >> ran.txt; fi
)yaml");
  const std::string db = d / "results/aerun.db";
  auto bg = start_aerun(d, {"case", "c.yaml"});
  ASSERT_TRUE(eventually([&] { return fs::exists(d / "pid") && !read_file(d / "pid").empty(); }));
  const int pgid = std::stoi(read_file(d / "pid"));
  ASSERT_TRUE(eventually([&] { return sql1(db, "SELECT child_pgid FROM runs") != ""; }));
  EXPECT_EQ(sql1(db, "SELECT child_pgid FROM runs"), std::to_string(pgid));
  kill(bg->pid(), SIGKILL);
  bg->wait();
  ASSERT_EQ(kill(-pgid, 0), 0) << "the command's process group outlived its aerun";

  const auto r = run_aerun(d, {"case", "c.yaml"});
  const bool gone = eventually([&] { return kill(-pgid, 0) != 0; }, 5);
  if (!gone) kill(-pgid, SIGKILL);  // leave nothing behind, whatever happened
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(gone);
  EXPECT_THAT(r.err, HasSubstr("processes of its earlier attempt still run (process group " +
                               std::to_string(pgid)));
  EXPECT_EQ(read_file(d / "ran.txt"), "second\n");  // the first attempt never finished
  EXPECT_EQ(sql1(db, "SELECT status || ' ' || attempt FROM runs"), "ok 2");
  EXPECT_EQ(sql1(db, "SELECT coalesce(child_pgid, 'none') FROM runs"), "none");
}

namespace {

// CPU seconds a live process has used so far, all its threads (utime + stime of /proc/PID/stat),
// its children not counted; -1 once it is gone.
double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = stat.rfind(')');  // the command name may hold spaces
  if (paren == std::string::npos) return -1;
  std::istringstream fields(stat.substr(paren + 2));
  std::string f;
  for (int i = 3; i <= 13; ++i) fields >> f;  // state .. cmajflt
  long long utime = 0, stime = 0;
  fields >> utime >> stime;
  return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

}  // namespace

// SIGTERM long before the run's own `timeout:`, to a command that ignores TERM: aerun waits out
// the kill grace (5 s) asleep, then kills the group. It used to wake on the run's deadline
// instead of the grace and spin at 100 % CPU for the whole grace. Counted in CPU seconds of aerun
// itself (all its threads, /proc/PID/stat) from just after the signal to near the grace's end: a
// spinning loop uses about as much CPU as that span lasts. Not its rusage at exit: that also
// counts its children, the environment record's tools (`pip freeze` behind a pyenv shim and a
// sanitizer took 3.4 s of CPU on a loaded CI machine), which ran before the signal.
TEST(Interrupt, SigtermToARunThatIgnoresItCostsNoCpuWhileTheKillGraceRuns) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: stubborn
timeout: 10m
command: trap '' TERM; echo $$ > pid; while :; do sleep 0.1; done
)yaml");
  const std::string db = d / "results/aerun.db";
  auto bg = start_aerun(d, {"case", "c.yaml"});
  ASSERT_TRUE(
      eventually([&] { return fs::exists(d / "pid") && count(db, "status='running'") == 1; }));
  const auto sent = std::chrono::steady_clock::now();
  kill(bg->pid(), SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the signal is being handled
  const double cpu_from = cpu_seconds(bg->pid());
  const auto from = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));  // the grace is 5 s
  const double cpu = cpu_seconds(bg->pid()) - cpu_from;
  const double span =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
  bg->wait();
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  ASSERT_TRUE(bg->exit().code.has_value());
  EXPECT_EQ(*bg->exit().code, 143);
  EXPECT_GE(waited, 4.0);  // it did wait out the grace for the stubborn command
  EXPECT_LT(cpu, span / 2) << "aerun used " << cpu << " s of CPU over " << span
                           << " s of its grace";
  EXPECT_EQ(count(db, "status='interrupted'"), 1);
  const int pid = std::stoi(read_file(d / "pid"));
  EXPECT_TRUE(eventually([&] { return kill(pid, 0) != 0; }, 5)) << "the stubborn shell survived";
}

// A run whose log cannot be opened fails at once with the reason (it used to cost 5 s each).
TEST(Interrupt, ARunWhoseLogCannotBeOpenedFailsAtOnceNamingIt) {
  TempDir d;
  write_file(d / "c.yaml", "case: nolog\nparams: {i: [1, 2, 3]}\ncommand: echo {i}\n");
  // What one invocation of these three runs costs on this machine now (start-up, environment
  // record, a loaded CI machine's slowness): the baseline the failing one is held to.
  const auto b0 = std::chrono::steady_clock::now();
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const double base = std::chrono::duration<double>(std::chrono::steady_clock::now() - b0).count();
  const std::string db = d / "results/aerun.db";
  // The next attempt's log paths are taken by directories.
  for (const auto& row : sql(db, "SELECT key FROM runs"))
    fs::create_directories(d / ("results/logs/nolog/" + row[0].substr(0, 16) + "-a2.log"));
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = run_aerun(d, {"case", "c.yaml", "--force"});
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(count(db, "attempt=2 AND status<>'ok'"), 3);
  EXPECT_THAT(sql1(db, "SELECT reason FROM runs LIMIT 1"), HasSubstr("cannot write log"));
  EXPECT_THAT(sql1(db, "SELECT reason FROM runs LIMIT 1"), HasSubstr("Is a directory"));
  // The old cost was 5 s more for each of the three (15 s): half of that over the baseline fails.
  EXPECT_LT(took, base + 7.5) << "baseline " << base << " s";
}

// Issue 28: `aerun report` killed with kill -9 left its gnuplot running. gnuplot now gets a
// parent-death signal (setpriv): it goes with aerun. A stand-in gnuplot that waits shows it.
TEST(Interrupt, AKilledReportTakesItsGnuplotWithIt) {
  if (std::system("command -v setpriv >/dev/null 2>&1") != 0) GTEST_SKIP() << "no setpriv";
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: rep
params: {x: [1]}
command: echo "time_ms=12"
metrics:
  iter_ms: {regex: 'time_ms=([0-9]+)', unit: ms}
)yaml");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "n1"}).code, 0);
  fs::create_directories(d / "bin");
  write_file(d / "bin/gnuplot", "#!/bin/sh\necho $$ > " + std::string(d / "gp.pid") +
                                    ".tmp && mv " + std::string(d / "gp.pid") + ".tmp " +
                                    std::string(d / "gp.pid") + "\nexec sleep 60\n");
  fs::permissions(d / "bin/gnuplot", fs::perms::owner_all);
  const std::string path = std::getenv("PATH");
  ::setenv("PATH", (std::string(d / "bin") + ":" + path).c_str(), 1);
  auto bg = start_aerun(d, {"report", "--html", "site"});
  ::setenv("PATH", path.c_str(), 1);
  ASSERT_TRUE(eventually([&] { return fs::exists(d / "gp.pid"); }, 30));
  const int gp = std::stoi(read_file(d / "gp.pid"));
  ASSERT_EQ(kill(gp, 0), 0);
  kill(bg->pid(), SIGKILL);
  bg->wait();
  EXPECT_TRUE(eventually([&] { return kill(gp, 0) != 0; }, 5)) << "gnuplot " << gp << " lives on";
  kill(gp, SIGKILL);
}
