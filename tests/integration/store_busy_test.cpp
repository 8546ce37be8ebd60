// A store locked by another process for longer than the busy limit (10 s) never crashes an
// `aerun case` or its runs: a finished run's result is kept and written once the store is free.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(StoreBusy, ALockHeldPastTheBusyLimitDelaysResultsAndLosesNone) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: busy\nparams: {x: [1, 2, 3, 4]}\ncommand: sleep 2 && echo done {x}\n");
  // The store exists before the lock is taken.
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--only", "x=1"}).code, 0);
  aerun::ChildProcess::Options o;
  o.argv = {AERUN_BINARY, "case", "c.yaml", "-j", "3", "--no-progress"};
  for (char** e = environ; *e; ++e) o.env.emplace_back(*e);
  o.cwd = d.path().string();
  aerun::ChildProcess bg(o);
  // Once its runs are claimed, take the write lock and hold it 13 s: the runs end meanwhile.
  const std::string db = d / "results/aerun.db";
  ASSERT_TRUE(eventually(
      [&] { return sql1(db, "SELECT count(*) FROM runs WHERE status='running'") == "3"; }));
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(h, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  std::this_thread::sleep_for(std::chrono::seconds(13));
  const bool alive_while_locked = !bg.try_wait();
  sqlite3_exec(h, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(h);
  ASSERT_TRUE(eventually([&] { return bg.try_wait(); }, 60));
  std::string err;
  {
    char buf[4096];
    ssize_t n;
    while ((n = ::read(bg.output_fd(), buf, sizeof buf)) > 0)
      err.append(buf, static_cast<size_t>(n));
  }
  EXPECT_TRUE(alive_while_locked);
  ASSERT_TRUE(bg.exit().code.has_value()) << err;
  EXPECT_EQ(*bg.exit().code, 0) << err;
  EXPECT_THAT(err, HasSubstr("is locked by another process"));
  EXPECT_EQ(sql1(db, "SELECT group_concat(status) FROM runs"), "ok,ok,ok,ok");
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE wall_s >= 2"), "4");
}
