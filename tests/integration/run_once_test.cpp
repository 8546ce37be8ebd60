// Every run executed once (issue 11): concurrent `aerun case` processes on one store claim each
// run atomically; a process that finds a run claimed by a live one waits for it and reuses it.
#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "harness.hpp"

using namespace aerun::testing;
using aerun::shell_quote;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// A case of n points; each run appends its point to `executions` (one line per execution).
std::string counting_case(const std::string& name, int n, double seconds) {
  std::string xs;
  for (int i = 1; i <= n; ++i) xs += (i > 1 ? ", " : "") + std::to_string(i);
  return "case: " + name + "\nparams: {x: [" + xs + "]}\ncommand: echo " + name +
         "-{x} >> executions; sleep " + std::to_string(seconds) + "\n";
}

// Starts each command line (aerun arguments) in the background, `stagger` seconds apart, waits
// for all; returns their exit codes and stderr.
std::vector<Result> run_concurrently(const TempDir& d, const std::vector<std::string>& arg_lines,
                                     double stagger) {
  std::string script = "cd " + shell_quote(d.path().string()) + "\n";
  for (size_t i = 0; i < arg_lines.size(); ++i) {
    script += "(" + shell_quote(AERUN_BINARY) + " " + arg_lines[i] + " </dev/null >out." +
              std::to_string(i) + " 2>err." + std::to_string(i) + "; echo $? >rc." +
              std::to_string(i) + ") &\nsleep " + std::to_string(stagger) + "\n";
  }
  script += "wait\n";
  write_file(d / "together.sh", script);
  EXPECT_EQ(std::system(("bash " + shell_quote(d / "together.sh")).c_str()), 0);
  std::vector<Result> out;
  for (size_t i = 0; i < arg_lines.size(); ++i) {
    Result r;
    r.code = std::stoi(read_file(d / ("rc." + std::to_string(i))));
    r.out = read_file(d / ("out." + std::to_string(i)));
    r.err = read_file(d / ("err." + std::to_string(i)));
    out.push_back(r);
  }
  return out;
}

std::map<std::string, int> executions(const TempDir& d) {
  std::map<std::string, int> n;
  std::istringstream in(read_file(d / "executions"));
  for (std::string line; std::getline(in, line);) ++n[line];
  return n;
}

}  // namespace

TEST(RunOnce, TwoProcessesOnOneCaseRunEachPointOnceAndBothSucceed) {
  TempDir d;
  write_file(d / "c.yaml", counting_case("c", 4, 1.5));
  const auto rs = run_concurrently(d, {"case c.yaml", "case c.yaml"}, 0.5);
  for (const auto& r : rs) {
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("locked")));
  }
  const auto n = executions(d);
  ASSERT_EQ(n.size(), 4u) << read_file(d / "executions");
  for (const auto& [point, times] : n) EXPECT_EQ(times, 1) << point;
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE status='ok' AND attempt=1"), "4");
}

namespace {

// Eight aerun processes started together on one store: the same 6-point case four ways (-j 1,
// -j 2, two overlapping --only), a 3-point case three ways; each point must run once.
void expect_eight_processes_run_each_run_once(const TempDir& d) {
  write_file(d / "a.yaml", counting_case("a", 6, 0.4));
  write_file(d / "b.yaml", counting_case("b", 3, 0.4));
  const auto rs = run_concurrently(
      d,
      {"case a.yaml", "case a.yaml --only x=1 --only x=2", "case b.yaml", "case a.yaml -j 2",
       "case a.yaml --only x=6", "case b.yaml -j 3", "case a.yaml", "case b.yaml --only x=2"},
      0.05);
  for (const auto& r : rs) {
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("locked")));
  }
  const auto n = executions(d);
  EXPECT_EQ(n.size(), 9u) << read_file(d / "executions");
  for (const auto& [point, times] : n) EXPECT_EQ(times, 1) << point;
  EXPECT_EQ(
      sql1(d / "results/aerun.db", "SELECT count(*) FROM runs WHERE status='ok' AND attempt=1"),
      "9");
}

}  // namespace

TEST(RunOnce, EightProcessesWithOverlappingSelectionsAndCasesRunEachRunOnce) {
  TempDir d;
  expect_eight_processes_run_each_run_once(d);
}

// Issue 28: on a file system hosts share (Lustre, GPFS, NFS: AERUN_TEST_FILESYSTEM stands in for
// statfs) the store keeps a rollback journal, not WAL; the claims hold just the same.
TEST(RunOnce, OnASharedFileSystemEightProcessesRunEachRunOnceWithARollbackJournal) {
  TempDir d;
  ::setenv("AERUN_TEST_FILESYSTEM", "lustre", 1);
  expect_eight_processes_run_each_run_once(d);
  ::unsetenv("AERUN_TEST_FILESYSTEM");
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "PRAGMA journal_mode"), "delete");
  EXPECT_FALSE(fs::exists(db + "-wal"));
}

TEST(RunOnce, AStoppedWaiterLeavesTheRunToItsOwner) {
  TempDir d;
  // The owner's run lasts until the test lets it end (the file go), however slow the machine.
  write_file(d / "c.yaml",
             "case: c\nparams: {x: [1]}\ncommand: echo c-{x} >> executions; "
             "while [ ! -e go ]; do sleep 0.05; done\n");
  auto owner = start_aerun(d, {"case", "c.yaml"});
  const std::string db = d / "results/aerun.db";
  ASSERT_TRUE(eventually([&] { return fs::exists(d / "executions"); }));
  // A second aerun waits for the owner; Ctrl-C stops it: the run is not counted as its.
  auto waiter = start_aerun_logged(d, {"case", "c.yaml"});
  const bool waiting =
      eventually([&] { return read_file(d / ".err").find("waiting for it") != std::string::npos; });
  kill(waiter->pid(), SIGINT);
  waiter->wait();
  EXPECT_TRUE(waiting) << read_file(d / ".err");
  ASSERT_TRUE(waiter->exit().code.has_value());
  EXPECT_EQ(*waiter->exit().code, 130) << read_file(d / ".err");
  write_file(d / "go", "");
  owner->wait();
  EXPECT_EQ(executions(d).size(), 1u);
  EXPECT_EQ(sql1(db, "SELECT status || ' ' || attempt FROM runs"), "ok 1");
}
