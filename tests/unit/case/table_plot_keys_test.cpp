// Table keys of issue 6 (derive, pivot, runs_from, speedup columns, largest_ok, unit) and plots:
// how they read, and the errors naming file, line and key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/error.hpp"
#include "parse_error.hpp"

namespace aerun {
namespace {

using ::testing::HasSubstr;

const std::string kHead =
    "case: t\ncommand: echo {method} {layers}\nparams: {method: [a, b], layers: [1, 2], batch: 4}\n"
    "metrics: {sps: 'x ([0-9]+)', iter_ms: 'y ([0-9]+)'}\n";

std::string error_of(const std::string& yaml) {
  return testing::parse_error(yaml, "t.yaml");
}

TEST(TableKeys, ReadDerivePivotRunsFromSpeedupLargestOkAndUnit) {
  const CaseSpec c = parse_case(kHead + R"Y(tables:
  t1:
    rows: [layers]
    pivot: method
    runs_from: [other-case]
    derive:
      sps2: {formula: "batch / (iter_ms / 1000)", unit: samples/s}
      double_it: sps2 * 2
    columns:
      - {metric: sps2, unit: "1/s"}
      - {metric: layers, agg: largest_ok}
      - {speedup: sps, of: {method: b}, lower_is_better: false, label: "b speedup"}
    reference:
      - {layers: 1, method: a, sps2: 3.5}
)Y",
                                "t.yaml", "/tmp");
  const TableSpec& t = c.tables.at(0);
  EXPECT_EQ(t.pivot, "method");
  EXPECT_EQ(t.runs_from, std::vector<std::string>{"other-case"});
  ASSERT_EQ(t.derive.size(), 2u);
  EXPECT_EQ(t.derive[0].formula, "batch / (iter_ms / 1000)");
  EXPECT_EQ(t.derive[0].unit, "samples/s");
  EXPECT_EQ(t.derive[1].formula, "sps2 * 2");
  EXPECT_EQ(t.columns[0].unit, "1/s");
  EXPECT_EQ(t.columns[1].agg, Aggregation::LargestOk);
  EXPECT_EQ(t.columns[2].source, "sps");
  EXPECT_EQ(t.columns[2].label, "b speedup");
  ASSERT_EQ(t.columns[2].speedup_of.size(), 1u);
  EXPECT_EQ(t.columns[2].speedup_of[0].second.text(), "b");
  ASSERT_EQ(t.references.size(), 1u);  // the pivot selects the row like a row parameter
  EXPECT_EQ(t.references[0].match.size(), 2u);
}

TEST(TableKeys, ASpeedupNeedsOfAndOfNeedsRowParameters) {
  EXPECT_THAT(
      error_of(kHead +
               "tables:\n  t1:\n    rows: [method]\n    columns:\n      - {speedup: sps}\n"),
      HasSubstr("a speedup column needs 'of'"));
  EXPECT_THAT(error_of(kHead + "tables:\n  t1:\n    rows: [method]\n    columns:\n"
                               "      - {speedup: sps, of: {layers: 1}}\n"),
              HasSubstr("'layers' must be a row parameter"));
}

TEST(TableKeys, APivotThatIsAlsoARowAndADeriveShadowingAMetricAreErrors) {
  EXPECT_THAT(error_of(kHead + "tables:\n  t1:\n    rows: [method]\n    pivot: method\n"
                               "    columns: [sps]\n"),
              HasSubstr("both a row parameter and the pivot"));
  EXPECT_THAT(error_of(kHead + "tables:\n  t1:\n    derive: {sps: 1}\n    columns: [sps]\n"),
              HasSubstr("t.yaml:7:14: tables.t1.derive.sps: 'sps' is already a metric"));
}

TEST(PlotKeys, ReadAPlotOfATable) {
  const CaseSpec c = parse_case(kHead + R"Y(tables:
  t1: {rows: [method, layers], columns: [iter_ms]}
plots:
  p1: {table: t1, kind: line, x: layers, y: iter_ms, series: method, fit: linear, paper: false}
)Y",
                                "t.yaml", "/tmp");
  ASSERT_EQ(c.plots.size(), 1u);
  EXPECT_EQ(c.plots[0].table, "t1");
  EXPECT_EQ(c.plots[0].x, "layers");
  EXPECT_EQ(c.plots[0].series, "method");
  EXPECT_TRUE(c.plots[0].fit_linear);
  EXPECT_FALSE(c.plots[0].paper);
}

TEST(PlotKeys, UnknownTableXNotARowAndBadKindAreErrors) {
  const std::string tables = "tables:\n  t1: {rows: [method], columns: [iter_ms]}\n";
  EXPECT_THAT(error_of(kHead + tables + "plots:\n  p: {table: t2, x: method, y: iter_ms}\n"),
              HasSubstr("no table 't2' in this case (tables: t1)"));
  EXPECT_THAT(error_of(kHead + tables + "plots:\n  p: {table: t1, x: layers, y: iter_ms}\n"),
              HasSubstr("'layers' is not a row parameter of table 't1'"));
  EXPECT_THAT(
      error_of(kHead + tables + "plots:\n  p: {table: t1, kind: pie, x: method, y: iter_ms}\n"),
      HasSubstr("kind is 'line' or 'bars'"));
}

TEST(Workdir, ExpandsEnvironmentVariablesWithDefaults) {
  ::setenv("AERUN_TEST_WD", "/opt/x", 1);
  EXPECT_EQ(
      parse_case("case: t\ncommand: echo\nworkdir: ${AERUN_TEST_WD:-/a}/b\n", "t.yaml", "/tmp")
          .workdir,
      "/opt/x/b");
  ::unsetenv("AERUN_TEST_WD");
  EXPECT_EQ(
      parse_case("case: t\ncommand: echo\nworkdir: ${AERUN_TEST_WD:-/a}/b\n", "t.yaml", "/tmp")
          .workdir,
      "/a/b");
}

TEST(StrongholdCases, AllFiveShippedCasesLoadWithTheirTablesAndPlots) {
  const std::string dir = std::string(AERUN_CASES_DIR) + "/stronghold/";
  const char* tables[] = {"fig6a", "fig7a", "fig8a", "fig8b", "fig9"};
  for (int i = 1; i <= 5; ++i) {
    const CaseSpec c = load_case(dir + "case" + std::to_string(i) + ".yaml");
    EXPECT_EQ(c.tables.at(0).name, tables[i - 1]);
    EXPECT_TRUE(c.exclusive_gpu);
  }
}

}  // namespace
}  // namespace aerun
