// Table keys for run times (start, first_step, ... with format, tz, agg) and references on speedup
// columns: how they read, and the errors naming file, line and key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/error.hpp"
#include "parse_error.hpp"

namespace aerun {
namespace {

using ::testing::HasSubstr;

const std::string kHead =
    "case: t\ncommand: echo {method} {layers}\nparams: {method: [a, b], layers: [1, 2]}\n"
    "metrics: {sps: 'x ([0-9]+)'}\ntables:\n  t1:\n    rows: [method]\n";

std::string error_of(const std::string& yaml) {
  return testing::parse_error(yaml, "t.yaml");
}

TEST(TableTimeKeys, InstantsReadWithAStrftimeFormatAZoneAndFirstByDefault) {
  const CaseSpec c = parse_case(kHead +
                                    "    columns:\n"
                                    "      - start\n"
                                    "      - {metric: first_step, format: '%H:%M:%S,%f', tz: "
                                    "'+02:00', agg: max}\n"
                                    "      - {metric: queue_wait_s, format: .1f}\n",
                                "t.yaml", "/tmp");
  const auto& cols = c.tables.at(0).columns;
  ASSERT_EQ(cols.size(), 3u);
  EXPECT_EQ(cols[0].source, "start");
  EXPECT_EQ(cols[0].agg, Aggregation::First);  // an instant's default: the first repeat's
  EXPECT_EQ(cols[1].format, "%H:%M:%S,%f");
  EXPECT_EQ(cols[1].tz, "+02:00");
  EXPECT_EQ(cols[1].agg, Aggregation::Max);
  EXPECT_EQ(cols[2].agg, Aggregation::Median);  // a duration is a number like any other
}

TEST(TableTimeKeys, MedianOfAnInstantIsRefusedAtItsLine) {
  EXPECT_THAT(error_of(kHead + "    columns:\n      - {metric: start, agg: median}\n"),
              HasSubstr("t.yaml:9:30: tables.t1.columns[0].agg: 'start' is a calendar time: "
                        "aggregate it with first, last, min, max, n"));
}

TEST(TableTimeKeys, BadTimeFormatZoneAndMisplacedTzAreErrors) {
  EXPECT_THAT(error_of(kHead + "    columns:\n      - {metric: end, format: '%Q'}\n"),
              HasSubstr("t.yaml:9:31: tables.t1.columns[0].format: invalid time format '%Q': "
                        "unknown time directive '%Q'"));
  EXPECT_THAT(error_of(kHead + "    columns:\n      - {metric: end, tz: Europe/Paris}\n"),
              HasSubstr("tables.t1.columns[0].tz: unknown time zone 'Europe/Paris'"));
  EXPECT_THAT(error_of(kHead + "    columns:\n      - {metric: sps, tz: UTC}\n"),
              HasSubstr("tables.t1.columns[0].tz: 'tz' belongs to a calendar-time column"));
  EXPECT_THAT(error_of(kHead + "    columns:\n      - {metric: sps, format: '%H'}\n"),
              HasSubstr("tables.t1.columns[0].format: invalid number format '%H'"));
}

TEST(TableTimeKeys, AnInstantIsNeitherASpeedupNorReferenced) {
  EXPECT_THAT(error_of(kHead + "    columns:\n      - {speedup: start, of: {method: a}}\n"),
              HasSubstr("tables.t1.columns[0].speedup: 'start' is a calendar time; a speedup"));
  EXPECT_THAT(error_of(kHead + "    columns: [start]\n    reference:\n      - {method: a, "
                               "start: 1}\n"),
              HasSubstr("t.yaml:10:21: tables.t1.reference[0].start: 'start' is a calendar time"));
}

TEST(TableTimeKeys, AnUnknownSourceListsTheRunTimes) {
  EXPECT_THAT(error_of(kHead + "    columns: [started]\n"),
              HasSubstr("unknown column source 'started' (did you mean 'start'?); a column shows "
                        "a metric, a parameter or a run time (start, first_output, first_step"));
}

TEST(TableTimeKeys, AMetricNamedLikeARunTimeIsRefused) {
  EXPECT_THAT(error_of("case: t\ncommand: echo\nmetrics: {end: 'x ([0-9]+)'}\n"),
              HasSubstr("metrics.end: metric 'end' has the name of a parameter or of a run time"));
}

TEST(TableTimeKeys, AReferenceNamesASpeedupColumnByItsLabel) {
  const CaseSpec c = parse_case(kHead +
                                    "    columns:\n"
                                    "      - sps\n"
                                    "      - {speedup: sps, of: {method: b}, label: 'B speedup'}\n"
                                    "    reference:\n"
                                    "      - {method: a, sps: 2.5, 'B speedup': 1.6}\n",
                                "t.yaml", "/tmp");
  const auto& refs = c.tables.at(0).references;
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0].column, "sps");
  EXPECT_EQ(refs[1].column, "B speedup");
  EXPECT_DOUBLE_EQ(refs[1].value, 1.6);
  // the speedup's source alone names no column when only the speedup shows it
  EXPECT_THAT(error_of(kHead + "    columns:\n"
                               "      - {speedup: sps, of: {method: b}, label: 'B speedup'}\n"
                               "    reference:\n"
                               "      - {method: a, sps: 1.6}\n"),
              HasSubstr("'sps' is neither a row parameter (method) nor a column (B speedup)"));
}

}  // namespace
}  // namespace aerun
