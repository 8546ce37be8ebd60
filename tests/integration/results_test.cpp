// Looking at results: `aerun runs`, `aerun show`, `aerun table`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const char* kCase = R"yaml(case: results
title: "Iteration time"
paper: "Test paper"
figure: "Fig. 1"
params: {layers: [2, 10], method: m}
command: |
  echo " iteration 1/ 2 | elapsed time per iteration (ms): 99.0 |"
  echo " iteration 2/ 2 | elapsed time per iteration (ms): $(( {layers} * 10 )).0 |"
  if [ {layers} -gt 5 ]; then echo "CUDA out of memory"; exit 1; fi
repeat: 2
metrics:
  iter_ms: {regex: 'elapsed time per iteration \(ms\): ([0-9.]+)', reduce: last, unit: ms}
status: [{regex: 'CUDA out of memory', status: oom}]
tables:
  tab1:
    title: "Iteration time per layer count"
    rows: [layers]
    columns: [iter_ms]
    tolerance: 0.1
    reference:
      - {layers: 2, iter_ms: 19.0}
      - {layers: 10, iter_ms: 100}
)yaml";

}  // namespace

TEST(Results, RunsListsEveryRunAsCsvWithAHeaderAndAColumnPerParameterAndMetric) {
  TempDir d;
  write_file(d / "cases/r.yaml", kCase);
  EXPECT_EQ(run_aerun(d, {"case", "cases/r.yaml"}).code, 1);
  const auto r = run_aerun(d, {"runs", "--case", "results", "--format", "csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto header = r.out.substr(0, r.out.find('\n'));
  EXPECT_EQ(
      header,
      "key,case,system,repeat,attempt,status,reason,layers,method,iter_ms,startup_s,wall_s,queue_"
      "wait_s,job_id,log,case_digest,current_version");
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5);
  EXPECT_THAT(r.out, HasSubstr(",ok,,2,m,20,"));
  EXPECT_THAT(r.out, HasSubstr(",oom,line 3: CUDA out of memory,10,m,100,"));
  const auto oom = run_aerun(d, {"runs", "--status", "oom", "--format", "json"});
  EXPECT_THAT(oom.out, HasSubstr("\"status\": \"oom\""));
  EXPECT_THAT(oom.out, Not(HasSubstr("\"status\": \"ok\"")));
  EXPECT_THAT(run_aerun(d, {"runs"}).out, HasSubstr("| key | case | rep | status | layers |"));
}

TEST(Results, ShowTracesEveryMetricToItsLogLine) {
  TempDir d;
  write_file(d / "cases/r.yaml", kCase);
  run_aerun(d, {"case", "cases/r.yaml", "--only", "layers=2", "--only", "repeat=0"});
  const std::string key = sql1(d / "results/aerun.db", "SELECT key FROM runs");
  const auto r = run_aerun(d, {"show", key.substr(0, 8)});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("status      ok"));
  EXPECT_THAT(r.out, HasSubstr("iter_ms"));
  EXPECT_THAT(r.out, HasSubstr(".log:2"));
  EXPECT_EQ(run_aerun(d, {"show", "zzzzzzzz"}).code, 2);
}

TEST(Results, TableShowsMeasuredValuesBesideThePapersAndFailuresAsTheirStatus) {
  TempDir d;
  write_file(d / "cases/r.yaml", kCase);
  run_aerun(d, {"case", "cases/r.yaml"});
  const auto md = run_aerun(d, {"table", "tab1"});
  ASSERT_EQ(md.code, 0) << md.err;
  EXPECT_THAT(md.out, HasSubstr("Iteration time per layer count"));
  EXPECT_THAT(md.out, HasSubstr("OOM"));
  EXPECT_THAT(md.out, HasSubstr("19"));
  const auto csv = run_aerun(d, {"table", "tab1", "--format", "csv"});
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_THAT(csv.out, HasSubstr("layers,iter_ms"));
  const auto json = run_aerun(d, {"table", "tab1", "--format", "json"});
  EXPECT_THAT(json.out, HasSubstr("\"ratio\""));
  EXPECT_EQ(run_aerun(d, {"table", "no_such_table"}).code, 2);
}

TEST(Results, TableCheckExitsOneNamingEveryCellNotWithinThePapersTolerance) {
  TempDir d;
  write_file(d / "cases/r.yaml", kCase);
  run_aerun(d, {"case", "cases/r.yaml"});
  // layers=2 measures 20 ms against the paper's 19 (ratio 1.053, within 10 %); layers=10 ran
  // out of memory: no measurement for the paper's 100.
  auto r = run_aerun(d, {"table", "tab1", "--check"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("Iteration time per layer count"));  // the table is printed
  EXPECT_THAT(r.err, HasSubstr("check failed: 1 of 2 compared cells not within ±10% of the paper"));
  EXPECT_THAT(r.err, HasSubstr("layers=10 iter_ms: OOM (paper 100)"));
  // With the OOM point's reference gone, every compared cell passes.
  std::string text = kCase;
  text.erase(text.find("      - {layers: 10, iter_ms: 100}\n"));
  write_file(d / "cases/r.yaml", text);
  r = run_aerun(d, {"table", "tab1", "--check"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("check: 1 of 1 compared cells within ±10% of the paper"));
  // A tighter paper value fails with the numbers.
  text.replace(text.find("iter_ms: 19.0"), 13, "iter_ms: 25.0");
  write_file(d / "cases/r.yaml", text);
  r = run_aerun(d, {"table", "tab1", "--check"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("layers=2 iter_ms: 20 vs paper 25 (ratio 0.800)"));
}

TEST(Results, RunsShowsTheStatusWithAShortReasonAndCsvTheWholeOne) {
  TempDir d;
  const std::string line(400, 'x');
  write_file(d / "c.yaml", "case: long\nparams: {x: [1]}\ncommand: echo 'CUDA out of memory " +
                               line + "'; exit 1\nstatus: {oom: 'CUDA out of memory'}\n");
  run_aerun(d, {"case", "c.yaml"});
  const auto md = run_aerun(d, {"runs"}).out;
  EXPECT_THAT(md,
              HasSubstr("| oom (line 1: CUDA out of memory xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…) |"));
  EXPECT_THAT(run_aerun(d, {"runs", "--format", "csv"}).out, HasSubstr(line));
}

TEST(Results, RunsPrintsNumbersInFixedNotationAsTablesDo) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: nf\nparams: {x: [1]}\ncommand: echo v=12000.5\nmetrics: {v: 'v=([0-9.]+)'}\n");
  run_aerun(d, {"case", "c.yaml"});
  const auto md = run_aerun(d, {"runs"}).out;
  EXPECT_THAT(md, HasSubstr("| ok | 1 | 12000 |"));
  EXPECT_THAT(md, Not(HasSubstr("e+04")));
  EXPECT_THAT(run_aerun(d, {"runs", "--format", "csv"}).out, HasSubstr(",12000.5,"));
}
