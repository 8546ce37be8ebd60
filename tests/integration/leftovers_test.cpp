// Issue 40, class 6: leftovers. A `merge` killed with -9 left its scratch copy of an older source
// store (`.aerun-merge-<pid>.db`, 61 MB after three kills) that nothing removed.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// A process id no process has now: a child that ended and was reaped.
pid_t dead_pid() {
  const pid_t p = fork();
  if (p == 0) _exit(0);
  int st = 0;
  waitpid(p, &st, 0);
  return p;
}

}  // namespace

TEST(Leftovers, AMergeRemovesTheScratchCopiesThatKilledMergesLeftHere) {
  TempDir d;
  write_file(d / "c.yaml", "case: lo\ncommand: echo hi\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "src/a.db"}).code, 0);
  fs::create_directories(d / "all");
  const std::string all = d / "all";
  const std::string dead = std::to_string(dead_pid());
  const std::string live = std::to_string(getpid());  // this test's: alive
  // What a killed merge leaves: copies of a store (SQLite with aerun's schema) and a rollback
  // journal (SQLite's magic number first). A file of the user's of such a name is kept
  // (ForeignFilesThirdPass.ScratchNamesNeverRemoveAUsersFileOrFolder).
  for (const std::string& name : {".aerun-merge-" + dead + ".db", ".aerun-merge-" + live + ".db",
                                  ".aerun-merge-otherhost-" + dead + ".db"})
    fs::copy_file(d / "src/a.db", all + "/" + name);
  write_file(all + "/.aerun-merge-" + dead + ".db-journal",
             std::string("\xd9\xd5\x05\xf9\x20\xa1\x63\xd7", 8) + std::string(504, '\0'));
  const auto r = run_aerun(d, {"merge", "src/a.db", "--into", "all/all.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(all + "/" + ".aerun-merge-" + dead + ".db"));
  EXPECT_FALSE(fs::exists(all + "/" + ".aerun-merge-" + dead + ".db-journal"));
  EXPECT_TRUE(fs::exists(all + "/" + ".aerun-merge-" + live + ".db"));  // a live process's
  EXPECT_TRUE(fs::exists(all + "/" + ".aerun-merge-otherhost-" + dead + ".db"));
  EXPECT_THAT(r.out, HasSubstr("1 attempt(s) added"));
}

TEST(Leftovers, ADaemonARunLeavesBehindIsReportedAndNotCountedInItsTime) {
  // `setsid sleep 4 &` outlives the command, holding its output: the run's wall_s included
  // aerun's 2 s wait for the output to end, and nothing said a process was left.
  TempDir d;
  write_file(d / "c.yaml", "case: daemon\ncommand: setsid sleep 4 & echo started\n");
  auto r = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "results/aerun.db";
  EXPECT_LT(std::stod(sql1(db, "SELECT wall_s FROM runs")), 1.5);
  r = run_aerun(d, {"show", sql1(db, "SELECT key FROM runs").substr(0, 12)});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("left 1 process(es) running (pid "));
}
