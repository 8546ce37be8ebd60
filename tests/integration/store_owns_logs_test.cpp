// Issue 40, class 3: a store owns its logs. Two stores in one folder (`--db a.db`, `--db b.db`)
// used to write the same `logs/<case>/<key>-a1.log`: the second run overwrote the first store's
// log, and `forget` on one removed the other's. Each store now writes under its own folder.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

const char* kCase = R"yaml(case: own
params: {x: [1]}
command: echo "store=$STORE x={x}"
)yaml";

}  // namespace

TEST(StoreOwnsLogs, TwoStoresInOneFolderNeverShareALogFile) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  auto r = run_aerun(d, {"case", "c.yaml", "--db", "a.db"}, "STORE=a");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_aerun(d, {"case", "c.yaml", "--db", "b.db"}, "STORE=b");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string log_a = sql1(d / "a.db", "SELECT log_path FROM runs");
  const std::string log_b = sql1(d / "b.db", "SELECT log_path FROM runs");
  EXPECT_NE(log_a, log_b);
  EXPECT_THAT(read_file(log_a), HasSubstr("store=a"));
  EXPECT_THAT(read_file(log_b), HasSubstr("store=b"));
  // The digest a.db keeps still matches its file.
  EXPECT_EQ(sql1(d / "a.db", "SELECT log_size FROM runs"), std::to_string(fs::file_size(log_a)));

  // Forgetting b's run removes b's log, never a's.
  r = run_aerun(d, {"forget", "--case", "own", "--db", "b.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("removed 1 log(s)"));
  EXPECT_FALSE(fs::exists(log_b));
  ASSERT_TRUE(fs::exists(log_a));
  EXPECT_THAT(read_file(log_a), HasSubstr("store=a"));
}

TEST(StoreOwnsLogs, TheDefaultStoreKeepsItsLogsFolderAndAnotherStoreItsOwn) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "results/b.db"}).code, 0);
  const std::string def = sql1(d / "results/aerun.db", "SELECT log_path FROM runs");
  const std::string other = sql1(d / "results/b.db", "SELECT log_path FROM runs");
  EXPECT_THAT(def, HasSubstr("/results/logs/own/"));
  EXPECT_THAT(other, HasSubstr("/results/logs-b.db/own/"));
}

TEST(StoreOwnsLogs, ALogInAnotherStoresFolderIsNeverForgottenOrPruned) {
  // A store's row names a log under the default store's folder (an older aerun wrote both stores'
  // logs there): forgetting or pruning it on b.db leaves the file, which aerun.db still names.
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "results/b.db"}).code, 0);
  const std::string def = sql1(d / "results/aerun.db", "SELECT log_path FROM runs");
  sql_exec(d / "results/b.db", "UPDATE runs SET log_path='" + def + "'");
  auto r = run_aerun(d, {"prune", "--keep-logs", "0s", "--db", "results/b.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("1 log(s) aerun did not write"));
  EXPECT_TRUE(fs::exists(def));
  r = run_aerun(d, {"forget", "--case", "own", "--db", "results/b.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("removed 0 log(s), kept 1 this store did not write"));
  EXPECT_TRUE(fs::exists(def));
}

TEST(StoreOwnsLogs, AStoreNamedLikeAnotherStoresLogsFolderIsNeverRemoved) {
  // The second adversarial pass: `--db results/logs` is a store where aerun.db keeps its logs;
  // `aerun case` on aerun.db removed that file (the store and its runs) to make its folder.
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "results/logs"}).code, 0);
  ASSERT_EQ(sql1(d / "results/logs", "SELECT count(*) FROM runs"), "1");
  const auto r = run_aerun(d, {"case", "c.yaml"});
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.err, HasSubstr("logs is a file, not a folder"));
  EXPECT_TRUE(fs::is_regular_file(d / "results/logs"));
  EXPECT_EQ(sql1(d / "results/logs", "SELECT count(*) FROM runs"), "1");
}
