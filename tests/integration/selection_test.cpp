// Selections (issue 17): `--only KEY=VALUE[,VALUE...]` and `--where CONDITION` choose the same
// runs in `case`, `runs`, `table`, `plot`, `history` and `forget`; `aerun runs` shows a default
// set of columns, `--columns` and `--all-columns`. Checked on exact output.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const char* kCase = R"yaml(case: sel
params:
  method: [l2l, stronghold, zero]
  layers: [8, 48, 64]
command: echo "iter_ms=$(( {layers} * 2 ))" && echo "extra=1"
metrics:
  iter_ms: 'iter_ms=(\d+)'
  extra: 'extra=(\d+)'
tables:
  seltab:
    rows: [method, layers]
    columns: [iter_ms]
plots:
  selplot: {table: seltab, x: layers, y: iter_ms, series: method}
)yaml";

// The (method, layers) of the stored runs, sorted.
std::string stored(const TempDir& d) {
  return sql1(d / "results/aerun.db",
              "SELECT group_concat(m || '/' || l, ' ') FROM (SELECT m.value AS m, l.value AS l "
              "FROM runs r JOIN run_params m ON m.run_id=r.id AND m.name='method' JOIN "
              "run_params l ON l.run_id=r.id AND l.name='layers' ORDER BY m.value, "
              "CAST(l.value AS INT))");
}

}  // namespace

TEST(Selection, CaseRunsOnlyTheListedValuesWhereTheConditionHolds) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  const auto r = run_aerun(d, {"case", "c.yaml", "--only", "method=l2l,zero", "--where",
                               "layers >= 48 && method != \"zero\" || layers == 8"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(stored(d), "l2l/8 l2l/48 l2l/64 zero/8");
  // A dry run shows the same selection.
  const auto dry = run_aerun(d, {"case", "c.yaml", "--dry-run", "--where", "layers * 2 > 100"});
  EXPECT_THAT(dry.out, HasSubstr("# 3 runs"));
}

TEST(Selection, ABadConditionOrAnUnknownNameStopsBeforeAnythingRuns) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  auto r = run_aerun(d, {"case", "c.yaml", "--where", "layers >="});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--where: bad formula \"layers >=\""));
  r = run_aerun(d, {"case", "c.yaml", "--where", "layer > 8"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown variable \"layer\""));
  r = run_aerun(d, {"case", "c.yaml", "--where", "layers > 1000"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no run of case 'sel' matches --where 'layers > 1000'"));
  EXPECT_FALSE(fs::exists(d / "results/aerun.db"));
}

TEST(Selection, RunsTableForgetAndHistorySelectStoredRunsTheSameWay) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  auto r = run_aerun(
      d, {"runs", "--where", "layers >= 48 && method != \"l2l\"", "--only",
          "method=stronghold,zero", "--format", "csv", "--columns", "method,layers,iter_ms"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "method,layers,iter_ms\n"
            "stronghold,48,96\nstronghold,64,128\nzero,48,96\nzero,64,128\n");
  // The table keeps the selected rows only: the others are not "missing".
  r = run_aerun(
      d, {"table", "seltab", "--cases", "c.yaml", "--where", "layers == 64", "--format", "csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "method,layers,iter_ms,iter_ms_min,iter_ms_max,iter_ms_n\nl2l,64,128,128,128,1\n"
            "stronghold,64,128,128,128,1\nzero,64,128,128,128,1\n");
  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    r = run_aerun(
        d, {"plot", "selplot", "--cases", "c.yaml", "--where", "method != \"l2l\" && layers > 8"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string gp = read_file(d / "results/plots/selplot.gp");
    EXPECT_THAT(gp, HasSubstr("title 'stronghold'"));
    EXPECT_THAT(gp, HasSubstr("title 'zero'"));
    EXPECT_THAT(gp, Not(HasSubstr("l2l")));
    EXPECT_THAT(gp, Not(HasSubstr("\n8 16\n")));
  }
  r = run_aerun(d, {"history", "iter_ms", "--case", "sel", "--only", "layers=8", "--where",
                    "method == \"zero\"", "--format", "csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(",method=zero layers=8,16,1,16,16,"));
  EXPECT_THAT(r.out, Not(HasSubstr("method=l2l")));
  r = run_aerun(d, {"forget", "--case", "sel", "--where", "layers < 10 && method == \"l2l\""});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("forgot 1 run(s)"));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs"), "8");
  r = run_aerun(d, {"runs", "--where", "nope == 1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown variable \"nope\""));
}

TEST(RunsColumns, TheDefaultShowsTheHeadlineMetricsAndTheRestOnRequest) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: cols
params: {x: [1]}
command: |
  echo " iteration        1/      10 | elapsed time per iteration (ms): 1200.5 | lm loss: 2.5E+00 | grad norm: 1.5 |"
  echo "custom=7"
presets: [megatron]
metrics:
  custom: 'custom=(\d+)'
)yaml");
  run_aerun(d, {"case", "c.yaml"});
  auto r = run_aerun(d, {"runs"});
  ASSERT_EQ(r.code, 0) << r.err;
  // The preset's headline metrics it has (iter_ms, lm_loss) and the case's own (custom); not
  // iteration, train_iters, grad_norm.
  EXPECT_THAT(r.out,
              HasSubstr("| key | case | rep | status | x | iter_ms | lm_loss | custom | startup_s "
                        "| wall_s |\n"));
  EXPECT_THAT(r.out, HasSubstr(" | cols | 0 | ok | 1 | 1200 | 2.5 | 7 | "));
  EXPECT_THAT(r.out,
              HasSubstr("\n1 run (10 more columns: --all-columns, or --columns NAME,...)\n"));
  r = run_aerun(d, {"runs", "--all-columns"});
  EXPECT_THAT(r.out, HasSubstr("| key | case | rep | attempt | status | reason | x | iteration | "
                               "train_iters | iter_ms | lm_loss | grad_norm | custom | startup_s | "
                               "wall_s | queue_wait_s | job_id | log | case_digest | "
                               "current_version |\n"));
  EXPECT_THAT(r.out, HasSubstr("\n1 run\n"));
  r = run_aerun(d, {"runs", "--columns", "status,grad_norm,custom"});
  EXPECT_EQ(r.out, "| status | grad_norm | custom |\n|---|---|---|\n| ok | 1.5 | 7 |\n\n1 run\n");
  r = run_aerun(d, {"runs", "--columns", "status,custm"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--columns: no column 'custm' (did you mean 'custom'?)"));
}
