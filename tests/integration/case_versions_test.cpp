// Tables use the case as it is now (issue 11): changing a fixed parameter and re-running one
// point never merges the old setting's runs into the new row.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

std::string case_text(int iters) {
  return "case: ver\nparams: {x: [1], iters: " + std::to_string(iters) +
         "}\ncommand: echo time={iters}.5\nmetrics: {t: 'time=([0-9.]+)'}\n"
         "tables:\n  vt:\n    rows: [x]\n    columns: [{metric: t, agg: mean}, {metric: t, agg: n, "
         "label: runs}]\n";
}

}  // namespace

TEST(CaseVersions, ATableUsesOnlyTheRunsOfTheCurrentVersion) {
  TempDir d;
  write_file(d / "c.yaml", case_text(20));
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  write_file(d / "c.yaml", case_text(30));  // a fixed parameter changed: a new version
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string db = d / "results/aerun.db";
  // The command template is the same; the point (iters=20) is no longer in the sweep, and the
  // case file's digest tells the two apart.
  EXPECT_EQ(sql1(db, "SELECT count(DISTINCT case_digest) FROM runs"), "2");
  auto r = run_aerun(d, {"table", "vt", "--cases", "c.yaml", "--format", "csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\n1,30.5,30.5,30.5,1,"));  // one run: the current setting's
  EXPECT_THAT(r.err, HasSubstr("1 run(s) of earlier versions of the case left out"));
  r = run_aerun(d, {"table", "vt", "--cases", "c.yaml", "--format", "csv", "--all-versions"});
  EXPECT_THAT(r.out, HasSubstr("\n1,25.5,20.5,30.5,2,"));  // (20.5 + 30.5) / 2 over both
  // Each run shows the version it came from.
  const std::string key = sql1(db, "SELECT key FROM runs ORDER BY id LIMIT 1");
  EXPECT_THAT(run_aerun(d, {"show", key.substr(0, 8)}).out, HasSubstr("version     "));
}

TEST(CaseVersions, AChangedCommandIsANewVersionEvenForTheSamePoint) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: cmd\nparams: {x: [1]}\ncommand: echo time=1.5\n"
             "metrics: {t: 'time=([0-9.]+)'}\n"
             "tables:\n  ct:\n    rows: [x]\n    columns: [{metric: t, agg: mean}]\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  write_file(d / "c.yaml",
             "case: cmd\nparams: {x: [1]}\ncommand: echo time=2.5\n"
             "metrics: {t: 'time=([0-9.]+)'}\n"
             "tables:\n  ct:\n    rows: [x]\n    columns: [{metric: t, agg: mean}]\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(DISTINCT case_version) FROM runs"), "2");
  const auto r = run_aerun(d, {"table", "ct", "--cases", "c.yaml", "--format", "csv"});
  EXPECT_THAT(r.out, HasSubstr("\n1,2.5,2.5,2.5,1\n"));  // the new command's run only
}

TEST(CaseVersions, ARowOfTheCurrentVersionWithNoStoredRunReadsMissing) {
  TempDir d;
  auto text = [](int iters) {
    return "case: miss\nparams: {x: [1, 2], iters: " + std::to_string(iters) +
           "}\ncommand: echo time={iters}.5\nmetrics: {t: 'time=([0-9.]+)'}\n"
           "tables:\n  mt:\n    rows: [x]\n    columns: [{metric: t, agg: mean}]\n";
  };
  write_file(d / "c.yaml", text(20));
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  write_file(d / "c.yaml", text(30));
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--only", "x=1"}).code, 0);
  const auto r = run_aerun(d, {"table", "mt", "--cases", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("| 1 | 30.5 |"));
  EXPECT_THAT(r.out, HasSubstr("| 2 | missing |"));  // not x=2's run of iters=20
}

TEST(CaseVersions, APlotDrawsOnlyTheRunsOfTheCurrentVersionAsItsTableDoes) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no gnuplot";
  TempDir d;
  auto text = [](int iters) {
    return "case: vplot\nparams: {x: [1, 2], iters: " + std::to_string(iters) +
           "}\ncommand: echo time={iters}.5\nmetrics: {t: 'time=([0-9.]+)'}\n"
           "tables:\n  pt:\n    rows: [x]\n    columns: [{metric: t, agg: mean}]\n"
           "plots:\n  pp: {table: pt, kind: line, x: x, y: t}\n";
  };
  write_file(d / "c.yaml", text(20));
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  write_file(d / "c.yaml", text(30));
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--only", "x=1"}).code, 0);
  const auto r = run_aerun(d, {"plot", "pp", "--cases", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string gp = read_file(d / "results/plots/pp.gp");
  EXPECT_THAT(gp, HasSubstr("\n1 30.5\n"));
  EXPECT_THAT(gp, Not(HasSubstr("25.5")));  // not the mean with the old version's run
  EXPECT_THAT(gp, Not(HasSubstr("20.5")));  // nor x=2's run of iters=20
}

TEST(CaseVersions, ACellFromFewerRunsThanPlannedIsMarkedInEveryFormat) {
  TempDir d;
  // Repeat 1 of x=2 fails: its cell is built from 2 of the 3 planned runs.
  write_file(d / "c.yaml",
             "case: short\nparams: {x: [1, 2]}\nrepeat: 3\n"
             "command: \"if [ {x} = 2 ] && [ {repeat} = 1 ]; then exit 3; fi; echo time={x}.5\"\n"
             "metrics: {t: 'time=([0-9.]+)'}\n"
             "tables:\n  st:\n    rows: [x]\n    columns: [{metric: t, agg: mean}]\n");
  EXPECT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 1);
  auto table = [&](const std::string& format) {
    const auto r = run_aerun(d, {"table", "st", "--cases", "c.yaml", "--format", format});
    EXPECT_EQ(r.code, 0) << r.err;
    return r.out;
  };
  EXPECT_THAT(table("md"), HasSubstr("| 1 | 1.5 (n=3) |"));
  EXPECT_THAT(table("md"), HasSubstr("| 2 | 2.5 (n=2/3) |"));
  EXPECT_THAT(table("csv"), HasSubstr("\n2,2.5,2.5,2.5,2,3\n"));
  EXPECT_THAT(table("json"), HasSubstr("\"n\": 2, \"planned\": 3"));
  EXPECT_THAT(table("latex"), HasSubstr("2.5$^{2/3}$"));
  EXPECT_THAT(table("html"), HasSubstr("n=2/3"));
}

TEST(CaseVersions, ATableOfACaseWithNoRunsIsAnErrorNamingTheCasesStored) {
  TempDir d;
  write_file(d / "a.yaml", "case: alpha\nparams: {x: [1]}\ncommand: echo hi\n");
  ASSERT_EQ(run_aerun(d, {"case", "a.yaml"}).code, 0);
  write_file(d / "c.yaml", case_text(20));
  const auto r = run_aerun(d, {"table", "vt", "--cases", "c.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no runs of case 'ver'"));
  EXPECT_THAT(r.err, HasSubstr("cases: alpha"));
}

TEST(CaseVersions, RunsListsTheCurrentVersionAndWithAllVersionsMarksTheOldOnes) {
  TempDir d;
  write_file(d / "c.yaml", case_text(20));
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  write_file(d / "c.yaml", case_text(30));
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  auto r = run_aerun(d, {"runs"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\n1 run ("));
  EXPECT_THAT(r.err, HasSubstr("1 run(s) of earlier versions of their case left out"));
  r = run_aerun(d, {"runs", "--all-versions"});
  EXPECT_THAT(r.out, HasSubstr("\n2 runs ("));
  EXPECT_THAT(r.out, HasSubstr("| version |"));
  EXPECT_THAT(r.out, HasSubstr(" (old) |"));
  r = run_aerun(d, {"runs", "--all-versions", "--format", "csv"});
  EXPECT_THAT(r.out, HasSubstr(",case_digest,current_version\n"));
  EXPECT_THAT(r.out, HasSubstr(",false\n"));
  EXPECT_THAT(r.out, HasSubstr(",true\n"));
  r = run_aerun(d, {"runs", "--all-versions", "--format", "json"});
  EXPECT_THAT(r.out, HasSubstr("\"current_version\": false"));
}
