// Issue 40, class 1: writes never follow a link planted in their path. A link put at a run's log
// path before it is run again, or at a report's plots/ folder, used to send aerun's writes into
// the file or folder it named; each is now replaced by aerun's own, the target left as it was.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

const char* kCase = R"yaml(case: planted
params: {x: [1]}
command: for i in 1 2 3; do echo "step $i time_ms=$(( 100 + {x} ))"; done
metrics:
  iter_ms: {regex: 'time_ms=([0-9]+)', unit: ms}
tables:
  t1:
    rows: [x]
    columns:
      - {metric: iter_ms, label: "Iteration"}
)yaml";

}  // namespace

TEST(PlantedLinks, ALinkPutAtARunsLogPathIsReplacedWhenTheRunIsRunAgain) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string log = sql1(d / "results/aerun.db", "SELECT log_path FROM runs");
  const std::string victim = d / "victim.txt";
  write_file(victim, "the user's own file\n");
  // Forgotten with its log kept, the run is run again as attempt 1: the same log path.
  ASSERT_EQ(run_aerun(d, {"forget", "--case", "planted", "--keep-logs"}).code, 0);
  fs::remove(log);
  fs::create_symlink(victim, log);
  const auto r = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(sql1(d / "results/aerun.db", "SELECT log_path FROM runs"), log);
  EXPECT_EQ(read_file(victim), "the user's own file\n");
  EXPECT_FALSE(fs::is_symlink(log));
  EXPECT_THAT(read_file(log), HasSubstr("step 3"));
}

TEST(PlantedLinks, ALinkPutAtTheLogsFolderItselfIsNotWrittenThrough) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  fs::create_directories(d / "results");
  fs::create_directories(d / "elsewhere");
  fs::create_directory_symlink(d / "elsewhere", d / "results/logs");
  const auto r = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_empty(d / "elsewhere"));
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(d / "results/logs")));
  EXPECT_THAT(read_file(sql1(d / "results/aerun.db", "SELECT log_path FROM runs")),
              HasSubstr("step 3"));
}

TEST(PlantedLinks, ALinkPutAtAReportsPlotsFolderIsNotWrittenThrough) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  fs::create_directories(d / "elsewhere");
  fs::create_directories(d / "site");
  fs::create_directory_symlink(d / "elsewhere", d / "site/plots");
  const auto r = run_aerun(d, {"report", "--html", "site"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_empty(d / "elsewhere"));
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(d / "site/plots")));
  EXPECT_FALSE(fs::is_empty(d / "site/plots"));
}

TEST(PlantedLinks, TheGpuLockIsInAFolderOfTheUsersOwn) {
  // No AERUN_LOCK_DIR: the lock goes to $XDG_RUNTIME_DIR when it is the user's private folder.
  TempDir d;
  write_file(d / "g.yaml", "case: g\nexclusive: gpu\ncommand: echo hi\n");
  fs::create_directories(d / "run");
  fs::permissions(d / "run", fs::perms::owner_all);
  const auto r = run_aerun(d, {"case", "g.yaml"},
                           "-u AERUN_LOCK_DIR XDG_RUNTIME_DIR=" + aerun::shell_quote(d / "run"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(d / "run/aerun-gpu.lock")));
  EXPECT_EQ(fs::status(d / "run/aerun-gpu.lock").permissions() & fs::perms::others_write,
            fs::perms::none);
}
