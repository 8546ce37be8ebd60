// A nightly cycle on this machine: two labelled sessions of one case, the second slowed on
// purpose (a parameter of the workload); `aerun regress` exits 1 and names the point, writes JUnit
// and JSON; a third night at the old speed passes against the best of the earlier ones.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// time_ms = (100 + repeat) * SLOW / 10 for hidden=64; hidden=128 is never slowed.
const char* kCase = R"yaml(case: nightly
params: {hidden: [64, 128]}
repeat: 5
command: |
  slow=${SLOW:-10}
  if [ {hidden} = 128 ]; then slow=10; fi
  echo "time_ms=$(( (100 + {repeat}) * slow / 10 ))"
metrics:
  iter_ms: {regex: 'time_ms=([0-9]+)', unit: ms}
)yaml";

}  // namespace

TEST(Regress, ANightlyCycleFindsTheSlowedPointAndOnlyIt) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night1"}).code, 0);
  // Interactive runs reuse; a labelled session runs every point anew.
  EXPECT_THAT(run_aerun(d, {"case", "c.yaml"}).err, HasSubstr("10 reused"));
  const auto n2 = run_aerun(d, {"case", "c.yaml", "--label", "night2"}, "SLOW=13");
  ASSERT_EQ(n2.code, 0) << n2.err;
  EXPECT_THAT(n2.err, HasSubstr("10 ok"));
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs"), "10");         // the latest attempts
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM run_history"), "10");  // night1's, kept

  auto r = run_aerun(d, {"regress", "--baseline", "night1", "--metric", "iter_ms", "--junit",
                         "junit.xml", "--json", "regress.json"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("### aerun regress: night2 against night1"));
  EXPECT_THAT(r.out, HasSubstr("| nightly | hidden=64 | iter_ms | 102 ms (n=5) | 132 ms (n=5) | "
                               "+29.4 % |"));
  EXPECT_THAT(r.out, HasSubstr("| **regressed** |"));
  EXPECT_THAT(r.out, Not(HasSubstr("| hidden=128 | iter_ms |")));  // unchanged: not listed
  const std::string junit = read_file(d / "junit.xml");
  EXPECT_THAT(junit, HasSubstr("<failure type=\"regressed\""));
  EXPECT_THAT(junit, HasSubstr("name=\"hidden=64 :: iter_ms\""));
  EXPECT_THAT(junit, HasSubstr("name=\"hidden=128 :: iter_ms\" time=\"0\"/>"));
  EXPECT_THAT(read_file(d / "regress.json"), HasSubstr("\"failed\": true"));
  // The default: the latest session against the one before it.
  EXPECT_EQ(run_aerun(d, {"regress"}).code, 1);

  // Night 3 at the old speed: improved against night 2, unchanged against the best of two.
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night3"}).code, 0);
  // (--metric iter_ms: the wall time of an `echo` is noise, not a measurement.)
  r = run_aerun(d, {"regress", "--metric", "iter_ms"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("1 improved, 1 unchanged (2 compared)"));
  r = run_aerun(d, {"regress", "--baseline", "best-of-2", "--metric", "iter_ms"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("### aerun regress: night3 against best-of-2 (night1, night2)"));
  EXPECT_THAT(r.out, HasSubstr("2 unchanged (2 compared)"));
  // Any two sessions, in either order.
  r = run_aerun(d,
                {"regress", "--current", "night2", "--baseline", "night3", "--metric", "iter_ms"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("### aerun regress: night2 against night3"));
}

TEST(Regress, APointThatNowFailsIsARegressionWhateverItsNumbers) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "good"}).code, 0);
  write_file(d / "c.yaml", std::string(kCase) + "status: {oom: 'time_ms=13'}\n");
  run_aerun(d, {"case", "c.yaml", "--label", "bad"}, "SLOW=13");
  const auto r = run_aerun(d, {"regress", "--baseline", "good"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("| nightly | hidden=64 | (status) |"));
  EXPECT_THAT(r.out, HasSubstr("**newly_failing** | 5 oom |"));
}

TEST(Regress, BadInputIsExitTwoNamingWhatExists) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night1"}).code, 0);
  auto r = run_aerun(d, {"regress", "--baseline", "nigth1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no session 'nigth1' (did you mean 'night1'?)"));
  r = run_aerun(d, {"regress", "--tolerance", "ten"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--tolerance"));
  r = run_aerun(d, {"regress", "--case", "nighty"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean 'nightly'"));
  r = run_aerun(d, {"case", "c.yaml", "--session", "old"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("the only value is `new`"));
}

TEST(Regress, ATableOfOneSessionShowsThatSessionsNumbers) {
  TempDir d;
  write_file(d / "c.yaml", std::string(kCase) +
                               "tables:\n  nt:\n    rows: [hidden]\n    columns: [{metric: "
                               "iter_ms, agg: median}]\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night1"}).code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night2"}, "SLOW=13").code, 0);
  auto r = run_aerun(d, {"table", "nt", "--cases", "c.yaml"});
  EXPECT_THAT(r.out, HasSubstr("| 64 | 132 (130–135, n=5) |"));  // the latest
  r = run_aerun(d, {"table", "nt", "--cases", "c.yaml", "--session", "night1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("| 64 | 102 (100–104, n=5) |"));
  EXPECT_EQ(run_aerun(d, {"table", "nt", "--cases", "c.yaml", "--session", "night9"}).code, 2);
  r = run_aerun(d, {"runs", "--session", "night2", "--format", "csv"});
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 11);  // header + 10 runs
}

TEST(Regress, HistoryShowsAMetricOverTheSessionsAndDrawsIt) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "n1"}).code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "n2"}, "SLOW=13").code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "n3"}).code, 0);
  auto r = run_aerun(d, {"history", "iter_ms", "--case", "nightly", "--where", "hidden < 100"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("### iter_ms of case nightly over 3 sessions (ms)"));
  EXPECT_THAT(r.out, HasSubstr("| hidden=64 | 102 | 5 | 100–104 |  |"));
  EXPECT_THAT(r.out, HasSubstr("| hidden=64 | 132 | 5 | 130–135 | **regressed** |"));
  EXPECT_THAT(r.out, HasSubstr("| hidden=64 | 102 | 5 | 100–104 | improved |"));
  EXPECT_THAT(r.out, Not(HasSubstr("hidden=128")));
  r = run_aerun(d, {"history", "iter_ms", "--case", "nightly", "--baseline", "n1", "--format",
                    "csv", "--plot", "--out", "figs"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\nn3,"));
  EXPECT_THAT(r.out, HasSubstr(",hidden=64,102,5,100,104,,unchanged\n"));  // n3 against n1
  if (r.err.find("gnuplot is not installed") == std::string::npos) {
    EXPECT_GT(fs::file_size(d / "figs/history-nightly-iter_ms.svg"), 1000u);
    EXPECT_GT(fs::file_size(d / "figs/history-nightly-iter_ms.png"), 1000u);
    const std::string gp = read_file(d / "figs/history-nightly-iter_ms.gp");
    EXPECT_THAT(gp, HasSubstr("set label 'baseline'"));
    EXPECT_THAT(gp, HasSubstr("title 'regressed'"));
  }
  r = run_aerun(d, {"history", "iter_m", "--case", "nightly"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean 'iter_ms'"));
}

TEST(Regress, ATableShowsEachRunsLatestSuccessUnlessOneSessionIsAsked) {
  TempDir d;
  write_file(d / "c.yaml",
             std::string(kCase) +
                 "status: {oom: 'OOM here'}\ntables:\n  nt:\n    rows: [hidden]\n    columns: "
                 "[{metric: iter_ms, agg: median}]\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "n1"}).code, 0);
  // Night 2: hidden=128 prints the OOM line (a parameter of the workload) and fails.
  write_file(d / "c.yaml",
             read_file(d / "c.yaml")
                 .replace(read_file(d / "c.yaml").find("  echo \"time_ms"), 0,
                          "  if [ \"${FAIL:-}\" = {hidden} ]; then echo OOM here; exit 1; fi\n"));
  run_aerun(d, {"case", "c.yaml", "--label", "n2"}, "FAIL=128");
  // The command changed, so the version changed too: the earlier success is of another version.
  auto r = run_aerun(d, {"table", "nt", "--cases", "c.yaml"});
  EXPECT_THAT(r.out, HasSubstr("| 128 | OOM |"));
  // Same version: night 3 fails again, the table shows night 2's... none; run night 4 ok, then
  // night 5 fails: the table shows night 4's value, --session n5 the failure.
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "n4"}).code, 0);
  run_aerun(d, {"case", "c.yaml", "--label", "n5"}, "FAIL=128");
  r = run_aerun(d, {"table", "nt", "--cases", "c.yaml"});
  EXPECT_THAT(r.out, HasSubstr("| 128 | 102 (100–104, n=5) |"));
  r = run_aerun(d, {"table", "nt", "--cases", "c.yaml", "--session", "n5"});
  EXPECT_THAT(r.out, HasSubstr("| 128 | OOM |"));
}
