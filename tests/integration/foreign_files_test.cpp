// Issue 28: no file touched that aerun did not write. `prune` and `forget` compress or remove only
// logs aerun wrote under its logs folder; figures and pages built from stored names stay in their
// folder and run no gnuplot command, whatever a log's file name or a merged store holds.
#include <sqlite3.h>

#include <chrono>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const char* kCase = R"yaml(case: life
params: {x: [1, 2]}
command: for i in 1 2 3; do echo "step $i time_ms=$(( 100 + {x} ))"; done
metrics:
  iter_ms: {regex: 'time_ms=([0-9]+)', unit: ms}
)yaml";

std::string quoted_sql(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

TEST(ForeignFiles, PruneNeverRemovesOrCompressesAnIngestedLogTheUsersOwnFile) {
  TempDir d;
  fs::create_directories(d / "archive");
  const std::string log = d / "archive/old.log";
  write_file(log, " iteration        1/       2 | elapsed time per iteration (ms): 10.0 |\n");
  // A log of two years ago, as archived runs are.
  fs::last_write_time(log, fs::file_time_type::clock::now() - std::chrono::hours(24 * 730));
  auto r = run_aerun(d, {"ingest", "archive", "--case", "old", "--preset", "megatron"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT log_state FROM runs"), "foreign");
  for (const char* how : {"--compress", ""}) {
    std::vector<std::string> args = {"prune", "--keep-logs", "180d"};
    if (*how) args.push_back(how);
    r = run_aerun(d, args);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("1 log(s) aerun did not write")) << how;
  }
  EXPECT_TRUE(fs::exists(log));
  EXPECT_FALSE(fs::exists(log + ".gz"));
  EXPECT_EQ(sql1(db, "SELECT log_state FROM runs"), "foreign");
}

TEST(ForeignFiles, AMergedStoresLogPathsAreNeverPrunedOrForgottenEvenWhenTheyNameAFileHere) {
  TempDir a, c;
  std::string far = kCase;
  far.replace(far.find("life"), 4, "F");  // another site's case
  write_file(a / "c.yaml", far);
  write_file(c / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(a, {"case", "c.yaml"}).code, 0);
  ASSERT_EQ(run_aerun(c, {"case", "c.yaml", "--only", "x=1"}).code, 0);
  const std::string A = a / "results/aerun.db", C = c / "results/aerun.db";
  // C's own log of x=1, and a file of the user's inside C's logs folder: another site's store
  // names both (by chance or on purpose).
  const std::string own = sql1(C, "SELECT log_path FROM runs");
  ASSERT_TRUE(fs::exists(own));
  const std::string victim = c / "results/logs/notes.txt";
  write_file(victim, "the user's notes\n");
  sql_exec(A, "UPDATE runs SET log_path=" + quoted_sql(victim) +
                  " WHERE id=(SELECT min(id) FROM runs);"
                  "UPDATE runs SET log_path=" +
                  quoted_sql(own) + " WHERE id=(SELECT max(id) FROM runs);");
  auto r = run_aerun(c, {"merge", A, "--into", C});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sql1(C, "SELECT group_concat(log_state) FROM runs WHERE case_name='F'"),
            "foreign,foreign");

  r = run_aerun(c, {"prune", "--keep-logs", "0s", "--case", "F"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(victim));
  EXPECT_TRUE(fs::exists(own));
  r = run_aerun(c, {"forget", "--case", "F"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("forgot 2 run(s), removed 0 log(s)"));
  EXPECT_TRUE(fs::exists(victim));
  EXPECT_TRUE(fs::exists(own));
  // C's own run still prunes its own log.
  r = run_aerun(c, {"prune", "--keep-logs", "0s"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(own));
  EXPECT_TRUE(fs::exists(victim));
}

TEST(ForeignFiles, ALogReplacedByALinkOrAPathLeavingTheLogsFolderIsLeftAlone) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string db = d / "results/aerun.db";
  const std::string victim = d / "victim.txt";
  write_file(victim, "keep me\n");
  const std::string first = sql1(db, "SELECT log_path FROM runs ORDER BY id LIMIT 1");
  // One log is now a link to the user's file; the other row's path climbs out of logs/.
  fs::remove(first);
  fs::create_symlink(victim, first);
  sql_exec(db, "UPDATE runs SET log_path=" + quoted_sql((d / "results/logs/../../victim.txt")) +
                   " WHERE id=(SELECT max(id) FROM runs)");
  const auto r = run_aerun(d, {"prune", "--keep-logs", "0s"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("2 log(s) aerun did not write"));
  EXPECT_EQ(read_file(victim), "keep me\n");
  EXPECT_TRUE(fs::is_symlink(first));
}

TEST(ForeignFiles, AReportOfAMergedCaseNamedWithDotsAndSlashesStaysInItsFolder) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no gnuplot";
  TempDir a, c;
  write_file(a / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(a, {"case", "c.yaml", "--label", "n1"}).code, 0);
  const std::string A = a / "results/aerun.db";
  fs::create_directories(c / "deep/er/er");
  sql_exec(A,
           "UPDATE runs SET case_name='../../../trav';"
           "UPDATE run_params SET value='a' || char(10) || 'system(\"touch PWNED\")' || "
           "char(10) || '#' WHERE value='1';");
  const std::string C = c / "deep/er/er/m.db";
  ASSERT_EQ(run_aerun(c, {"merge", A, "--into", C}).code, 0);
  const auto r = run_aerun(c, {"report", "--html", "deep/er/er/site", "--db", C});
  EXPECT_EQ(r.code, 0) << r.err;
  for (const auto& e : fs::recursive_directory_iterator(c.path())) {
    const std::string p = e.path().string();
    EXPECT_THAT(p, AnyOf(Not(HasSubstr("trav")), HasSubstr("/deep/er/er/site/"))) << p;
    EXPECT_THAT(p, Not(HasSubstr("PWNED"))) << p;
  }
  EXPECT_FALSE(fs::exists(a / "PWNED"));
  EXPECT_TRUE(fs::exists(c / "deep/er/er/site/index.html"));
}

// A merged store's 20 MB parameter value is shown by its start and size: the report's pages and
// figures, `runs` and `table` stay kilobytes (a 100 MB value made `report --html` run gnuplot on a
// 100 MB legend for minutes, with 1.3 GB, and wrote a 100 MB page).
TEST(ForeignFiles, AHugeStoredValueIsShownByItsStartAndSizeEverywhereAPersonReadsIt) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no gnuplot";
  TempDir a;
  write_file(a / "c.yaml", std::string(kCase) + R"yaml(tables:
  t1:
    rows: [x]
    columns:
      - {metric: iter_ms, label: "Iteration"}
)yaml");
  ASSERT_EQ(run_aerun(a, {"case", "c.yaml"}).code, 0);
  sql_exec(a / "results/aerun.db",
           "UPDATE run_params SET value=hex(zeroblob(10000000)) WHERE value='1'");
  const std::string shown = "\u2026 (20000002 bytes)";  // the label "x=0000..."
  auto r = run_aerun(a, {"report", "--html", "site"});
  ASSERT_EQ(r.code, 0) << r.err;
  size_t files = 0;
  bool legend = false;
  for (const auto& e : fs::recursive_directory_iterator(a / "site")) {
    if (!e.is_regular_file()) continue;
    ++files;
    EXPECT_LT(e.file_size(), 100'000u) << e.path();
    if (e.path().extension() == ".gp")
      legend = legend || read_file(e.path()).find(shown) != std::string::npos;
  }
  EXPECT_GE(files, 5u);  // index, the case's page, a figure's script, SVG and PNG
  EXPECT_TRUE(legend) << "no figure's legend shows the value by its start and size";
  EXPECT_THAT(read_file(a / "site/case-life.html"), HasSubstr(shown));
  r = run_aerun(a, {"runs", "--all-versions"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(r.out.size(), 10'000u);
  EXPECT_THAT(r.out, HasSubstr("\u2026 (20000000 bytes)"));
  r = run_aerun(a, {"table", "t1", "--cases", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(r.out.size(), 10'000u);
}
