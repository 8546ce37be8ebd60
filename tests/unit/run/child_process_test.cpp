#include "aerun/run/child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "aerun/util/error.hpp"

using aerun::ChildProcess;

namespace {

std::string read_all(ChildProcess& c) {
  std::string out;
  char buf[4096];
  for (;;) {
    pollfd p{c.output_fd(), POLLIN, 0};
    poll(&p, 1, 5000);
    const ssize_t n = read(c.output_fd(), buf, sizeof buf);
    if (n > 0) {
      out.append(buf, n);
    } else if (n == 0) {
      return out;
    }
  }
}

ChildProcess::Options sh(const std::string& script) {
  ChildProcess::Options o;
  o.argv = {"/bin/sh", "-c", script};
  o.env = {"PATH=/usr/bin:/bin", "GREETING=hello"};
  return o;
}

}  // namespace

TEST(ChildProcess, MergesStdoutAndStderrAndPassesTheEnvironment) {
  ChildProcess c(sh("echo out; echo err >&2; echo $GREETING"));
  EXPECT_EQ(read_all(c), "out\nerr\nhello\n");
  c.wait();
  ASSERT_TRUE(c.exit().code);
  EXPECT_EQ(*c.exit().code, 0);
}

TEST(ChildProcess, ReportsExitCodeAndCpuTimeOfTheWholeCommand) {
  ChildProcess c(sh("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; exit 7"));
  read_all(c);
  c.wait();
  EXPECT_EQ(*c.exit().code, 7);
  EXPECT_GT(c.exit().user_cpu_s + c.exit().sys_cpu_s, 0.0);
  EXPECT_GT(c.exit().max_rss_kb, 0);
}

TEST(ChildProcess, RunsInItsOwnProcessGroupSoOneSignalStopsEverythingItStarted) {
  ChildProcess c(sh("sleep 30 & sleep 30; echo never"));
  EXPECT_EQ(getpgid(c.pid()), c.pid());
  c.signal_group(SIGTERM);
  EXPECT_EQ(read_all(c), "");  // the background sleep died too: the pipe closed
  c.wait();
  ASSERT_TRUE(c.exit().signal);
  EXPECT_EQ(*c.exit().signal, SIGTERM);
}

TEST(ChildProcess, StdinIsEmptyAndTheWorkingDirectoryIsSet) {
  auto o = sh("cat; pwd");
  o.cwd = "/tmp";
  ChildProcess c(o);
  EXPECT_EQ(read_all(c), "/tmp\n");
}

TEST(ChildProcess, AProgramThatCannotBeStartedIsAnError) {
  ChildProcess::Options o;
  o.argv = {"/nonexistent/shell", "-c", "true"};
  EXPECT_THROW(ChildProcess c(o), aerun::SystemError);
}

TEST(ChildProcess, DestroyingARunningChildKillsAndReapsIt) {
  pid_t pid;
  {
    ChildProcess c(sh("exec sleep 30"));
    pid = c.pid();
  }
  EXPECT_NE(kill(pid, 0), 0);
}
