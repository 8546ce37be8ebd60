// A table's derive formulas over parameters and metrics named like muparserx built-ins.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/report/table.hpp"
#include "aerun/util/error.hpp"
#include "table_fixture.hpp"

namespace aerun {
namespace {

using testing::column;
using testing::derive;
using ::testing::HasSubstr;
using testing::make_run;
using testing::make_table;
using testing::params;

TEST(TableBuiltinNames, AParameterSizeAndAMetricSumAreTheRunsValues) {
  CaseSpec c = testing::make_case();
  MetricSpec sum;
  sum.name = "sum";
  c.metrics.push_back(sum);
  TableSpec t = make_table({"size"}, {column("per_item"), column("biggest")});
  // sum / size: 12 / 4 = 3 and 30 / 10 = 3; max(size, sum): 12 and 30
  t.derive = {derive("per_item", "sum / size"), derive("biggest", "max(size, sum)")};
  const std::vector<RunRecord> runs{make_run(params({{"size", "4"}}), "ok", {{"sum", 12}}),
                                    make_run(params({{"size", "10"}}), "ok", {{"sum", 30}})};
  const Table table = build_table(c, t, runs);
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(*table.rows[0].cells[0].value, 3);
  EXPECT_DOUBLE_EQ(*table.rows[0].cells[1].value, 12);
  EXPECT_DOUBLE_EQ(*table.rows[1].cells[1].value, 30);
}

TEST(TableBuiltinNames, ADerivedMetricNamedMinIsUsableByTheNextFormula) {
  TableSpec t = make_table({"hidden"}, {column("twice")});
  // min = iter_ms - 1 = 9; twice = min * 2 = 18
  t.derive = {derive("min", "iter_ms - 1"), derive("twice", "min * 2")};
  const Table table = build_table(testing::make_case(), t,
                                  {make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 10}})});
  EXPECT_DOUBLE_EQ(*table.rows[0].cells[0].value, 18);
}

TEST(TableBuiltinNames, SizeWithoutAParameterSizeIsAClearError) {
  TableSpec t = make_table({"hidden"}, {column("x")});
  t.derive = {derive("x", "size * 2")};
  try {
    build_table(testing::make_case(), t,
                {make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 10}})});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/cases/demo.yaml:30:7: tables.demo.derive.x: bad formula "
                                    "\"size * 2\": 'size' is a muparserx function"));
  }
}

}  // namespace
}  // namespace aerun
