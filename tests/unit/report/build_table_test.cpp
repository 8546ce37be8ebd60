#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "aerun/report/table.hpp"
#include "aerun/util/error.hpp"
#include "table_fixture.hpp"

using namespace aerun;
using namespace aerun::testing;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

std::vector<std::vector<std::string>> keys(const Table& t) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : t.rows) out.push_back(r.key);
  return out;
}

}  // namespace

TEST(BuildTable, AggregatesAMetricAsTheMedianOfRepeatsWithMinMaxAndN) {
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 12.31}}, 0),
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 11.9}}, 1),
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 12.8}}, 2)};
  const Table t = build_table(make_case(), make_table({"hidden"}, {column("iter_ms")}), runs);

  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_THAT(t.rows[0].key, ElementsAre("64"));
  const TableCell& c = t.rows[0].cells[0];
  EXPECT_DOUBLE_EQ(*c.value, 12.31);
  EXPECT_DOUBLE_EQ(c.min, 11.9);
  EXPECT_DOUBLE_EQ(c.max, 12.8);
  EXPECT_EQ(c.n, 3);
  EXPECT_EQ(c.text, "12.31");
}

TEST(BuildTable, EachAggregationReducesTheOkValuesOfTheRowInRepeatOrder) {
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 4}}, 2),
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 1}}, 0),
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 7}}, 1),
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 2}}, 3)};
  auto agg = [&](const std::string& a) {
    return *build_table(make_case(), make_table({"hidden"}, {column("iter_ms", a)}), runs)
                .rows[0]
                .cells[0]
                .value;
  };
  EXPECT_DOUBLE_EQ(agg("median"), 3);  // even count: mean of the middle two (2, 4)
  EXPECT_DOUBLE_EQ(agg("mean"), 3.5);
  EXPECT_DOUBLE_EQ(agg("min"), 1);
  EXPECT_DOUBLE_EQ(agg("max"), 7);
  EXPECT_DOUBLE_EQ(agg("first"), 1);  // repeat 0
  EXPECT_DOUBLE_EQ(agg("last"), 2);   // repeat 3
  EXPECT_DOUBLE_EQ(agg("n"), 4);
  EXPECT_DOUBLE_EQ(agg("stdev"), std::sqrt(7.0));  // sample stdev of 1, 7, 4, 2
}

TEST(BuildTable, OnlyOkRunsOfTheTablesCaseCount) {
  RunRecord other_case = make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 100}});
  other_case.case_name = "other";
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 10}}),
      make_run(params({{"hidden", "64"}}), "failed", {{"iter_ms", 50}}), other_case};
  const Table t = build_table(make_case(), make_table({"hidden"}, {column("iter_ms")}), runs);

  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(*t.rows[0].cells[0].value, 10);
  EXPECT_EQ(t.rows[0].cells[0].n, 1);
}

TEST(BuildTable, ARowWhoseRunsAllFailedShowsTheirStatusNeverZero) {
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 10}}),
      make_run(params({{"hidden", "128"}}), "oom", {}, 0),
      make_run(params({{"hidden", "128"}}), "oom", {}, 1),
      make_run(params({{"hidden", "256"}}), "failed"),
      make_run(params({{"hidden", "512"}}), "timeout")};
  const Table t = build_table(make_case(), make_table({"hidden"}, {column("iter_ms")}), runs);

  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_EQ(t.rows[1].cells[0].text, "OOM");
  EXPECT_FALSE(t.rows[1].cells[0].value.has_value());
  EXPECT_EQ(t.rows[1].cells[0].n, 0);
  EXPECT_EQ(t.rows[2].cells[0].text, "fail");
  EXPECT_EQ(t.rows[3].cells[0].text, "timeout");
}

TEST(BuildTable, ARowOnlyInTheReferencesShowsMissingMeasuredCellsWithThePaperValue) {
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  spec.references.push_back(reference(params({{"hidden", "256"}}), "iter_ms", 40));
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 10}})};
  const Table t = build_table(make_case(), spec, runs);

  EXPECT_THAT(keys(t), ElementsAre(ElementsAre("64"), ElementsAre("256")));
  const TableCell& c = t.rows[1].cells[0];
  EXPECT_EQ(c.text, "missing");
  EXPECT_FALSE(c.value.has_value());
  EXPECT_DOUBLE_EQ(*c.paper, 40);
  EXPECT_FALSE(c.ratio.has_value());
  EXPECT_FALSE(c.pass.has_value());
}

TEST(BuildTable, ReferenceGivesRatioAndPassesExactlyAtTheToleranceEdge) {
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  spec.tolerance = 0.1;
  for (const char* h : {"1", "2", "3", "4"})
    spec.references.push_back(reference(params({{"hidden", h}}), "iter_ms", 10));
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "1"}}), "ok", {{"iter_ms", 11}}),     // ratio 1.1: edge
      make_run(params({{"hidden", "2"}}), "ok", {{"iter_ms", 9}}),      // ratio 0.9: edge
      make_run(params({{"hidden", "3"}}), "ok", {{"iter_ms", 11.01}}),  // just outside
      make_run(params({{"hidden", "4"}}), "ok", {{"iter_ms", 10.2}})};
  const Table t = build_table(make_case(), spec, runs);

  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_DOUBLE_EQ(*t.rows[0].cells[0].ratio, 1.1);
  EXPECT_TRUE(*t.rows[0].cells[0].pass);
  EXPECT_TRUE(*t.rows[1].cells[0].pass);
  EXPECT_FALSE(*t.rows[2].cells[0].pass);
  EXPECT_DOUBLE_EQ(*t.rows[3].cells[0].ratio, 1.02);
  EXPECT_TRUE(*t.rows[3].cells[0].pass);
}

TEST(BuildTable, ReferenceNamingANonRowParameterSelectsOnlyRowsWithSuchARun) {
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  spec.references.push_back(reference(params({{"hidden", "64"}, {"batch", "32"}}), "iter_ms", 10));
  spec.references.push_back(reference(params({{"hidden", "128"}, {"batch", "8"}}), "iter_ms", 10));
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}, {"batch", "32"}}), "ok", {{"iter_ms", 10}}),
      make_run(params({{"hidden", "128"}, {"batch", "32"}}), "ok", {{"iter_ms", 10}})};
  const Table t = build_table(make_case(), spec, runs);

  EXPECT_TRUE(t.rows[0].cells[0].paper.has_value());
  EXPECT_FALSE(t.rows[1].cells[0].paper.has_value());
}

TEST(BuildTable, WhereKeepsOnlyRunsMatchingAllParametersOfOneEntry) {
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  spec.where = {params({{"batch", "32"}, {"method", "l2l"}}), params({{"batch", "4"}})};
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}, {"batch", "32"}, {"method", "l2l"}}), "ok",
               {{"iter_ms", 1}}),
      make_run(params({{"hidden", "128"}, {"batch", "32"}, {"method", "zero"}}), "ok",
               {{"iter_ms", 2}}),
      make_run(params({{"hidden", "256"}, {"batch", "4"}, {"method", "zero"}}), "ok",
               {{"iter_ms", 3}}),
      make_run(params({{"hidden", "512"}, {"batch", "8"}, {"method", "l2l"}}), "ok",
               {{"iter_ms", 4}})};
  const Table t = build_table(make_case(), spec, runs);

  EXPECT_THAT(keys(t), ElementsAre(ElementsAre("64"), ElementsAre("256")));
}

TEST(BuildTable, RowsFollowNaturalOrderPerKeyColumn) {
  const std::vector<RunRecord> runs = {
      make_run(params({{"host", "ws-10"}, {"hidden", "1024"}}), "ok", {{"iter_ms", 1}}),
      make_run(params({{"host", "ws-2"}, {"hidden", "128"}}), "ok", {{"iter_ms", 1}}),
      make_run(params({{"host", "ws-2"}, {"hidden", "1024"}}), "ok", {{"iter_ms", 1}}),
      make_run(params({{"host", "ws-10"}, {"hidden", "64"}}), "ok", {{"iter_ms", 1}})};
  const Table t =
      build_table(make_case(), make_table({"host", "hidden"}, {column("iter_ms")}), runs);

  EXPECT_THAT(keys(t), ElementsAre(ElementsAre("ws-2", "128"), ElementsAre("ws-2", "1024"),
                                   ElementsAre("ws-10", "64"), ElementsAre("ws-10", "1024")));
}

TEST(BuildTable, RunsDifferingInNonRowParametersShareARow) {
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}, {"seed", "1"}}), "ok", {{"iter_ms", 2}}),
      make_run(params({{"hidden", "64"}, {"seed", "2"}}), "ok", {{"iter_ms", 4}})};
  const Table t =
      build_table(make_case(), make_table({"hidden"}, {column("iter_ms", "mean")}), runs);

  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(*t.rows[0].cells[0].value, 3);
  EXPECT_EQ(t.rows[0].cells[0].n, 2);
}

TEST(BuildTable, StartupAndWallColumnsAggregateTheRunsOwnTimes) {
  std::vector<RunRecord> runs;
  for (double s : {3.0, 5.0, 4.0}) {
    runs.push_back(make_run(params({{"hidden", "64"}}), "ok"));
    runs.back().startup_s = s;
    runs.back().wall_s = s + 10;
  }
  const Table t = build_table(
      make_case(), make_table({"hidden"}, {column("startup_s"), column("wall_s", "max")}), runs);

  EXPECT_DOUBLE_EQ(*t.rows[0].cells[0].value, 4);
  EXPECT_DOUBLE_EQ(t.rows[0].cells[0].min, 3);
  EXPECT_EQ(t.rows[0].cells[0].n, 3);
  EXPECT_DOUBLE_EQ(*t.rows[0].cells[1].value, 15);
}

TEST(BuildTable, AParameterColumnShowsItsValueOrDistinctValuesJoinedBySlash) {
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}, {"batch", "32"}}), "ok", {{"iter_ms", 1}}),
      make_run(params({{"hidden", "128"}, {"batch", "8"}}), "ok", {{"iter_ms", 1}}),
      make_run(params({{"hidden", "128"}, {"batch", "16"}}), "ok", {{"iter_ms", 1}})};
  const Table t = build_table(make_case(), make_table({"hidden"}, {column("batch")}), runs);

  EXPECT_EQ(t.rows[0].cells[0].text, "32");
  EXPECT_DOUBLE_EQ(*t.rows[0].cells[0].value, 32);
  EXPECT_EQ(t.rows[1].cells[0].text, "8/16");
  EXPECT_FALSE(t.rows[1].cells[0].value.has_value());
}

TEST(BuildTable, FormatsNumbersWithTheColumnSpecOrFourSignificantDigits) {
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 2601.63}, {"tput", 123456.7}})};
  const Table t = build_table(
      make_case(),
      make_table({"hidden"},
                 {column("iter_ms"), column("iter_ms", "median", ".1f"), column("tput")}),
      runs);

  EXPECT_EQ(t.rows[0].cells[0].text, "2602");
  EXPECT_EQ(t.rows[0].cells[1].text, "2601.6");
  EXPECT_EQ(t.rows[0].cells[2].text, "123457");
}

// An unknown `agg:` is an error of the case file (case_errors_test); a TableSpec holds an
// Aggregation, so a table cannot be built with one. Every name reads back as itself.
TEST(BuildTable, EveryAggregationNameReadsBackAsItself) {
  for (const auto& n : kAggregationNames) {
    EXPECT_EQ(parse_aggregation(n.name), n.agg);
    EXPECT_EQ(to_string(n.agg), n.name);
  }
  EXPECT_EQ(parse_aggregation("mode"), std::nullopt);
  EXPECT_EQ(aggregation_names(true),
            (std::vector<std::string>{"first", "last", "min", "max", "n"}));
}

TEST(BuildTable, RejectsABadNumberFormat) {
  EXPECT_THROW(
      build_table(make_case(), make_table({"hidden"}, {column("iter_ms", "median", ".3q")}), {}),
      InputError);
}

TEST(BuildTable, RejectsAReferenceToAColumnTheTableDoesNotHave) {
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  spec.references.push_back(reference(params({{"hidden", "64"}}), "throughput", 1));
  try {
    build_table(make_case(), spec, {});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/cases/demo.yaml:24:7"));
    EXPECT_THAT(e.what(), HasSubstr("'throughput' is not a column"));
  }
}
