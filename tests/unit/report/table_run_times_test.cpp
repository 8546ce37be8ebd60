// Run times as table columns: instants (start, first_step, ...) shown as calendar time in every
// format, durations as numbers; which aggregates an instant takes. Expected values by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/report/table.hpp"
#include "aerun/util/error.hpp"
#include "table_fixture.hpp"

namespace aerun {
namespace {

using testing::column;
using ::testing::HasSubstr;
using testing::make_run;
using testing::make_table;
using testing::params;

// 1 700 000 000 s is 2023-11-14 22:13:20 UTC (19 675 days + 22 h 13 min 20 s).
constexpr double kT = 1700000000.0;

// A run of `hidden` started at kT + start_offset, at its first step 50.122 s later.
RunRecord timed_run(const std::string& hidden, double start_offset, int repeat = 0) {
  RunRecord r = make_run(params({{"hidden", hidden}}), "ok", {{"iter_ms", 10}}, repeat);
  r.launch_time = kT + start_offset;
  r.startup_time = kT + start_offset + 50.122;
  r.startup_s = 50.122;
  return r;
}

ColumnSpec time_column(std::string source, std::string format = {}, std::string agg = "first") {
  return column(std::move(source), std::move(agg), std::move(format));
}

TEST(TableRunTimes, StartAndFirstStepAreCalendarTimesInUtc) {
  const TableSpec t =
      make_table({"hidden"}, {time_column("start"), time_column("first_step", "%H:%M:%S,%f"),
                              column("startup_s", "median", ".3f")});
  const Table table = build_table(testing::make_case(), t, {timed_run("64", 0)});
  ASSERT_EQ(table.rows.size(), 1u);
  const auto& cells = table.rows[0].cells;
  EXPECT_EQ(cells[0].text, "2023-11-14 22:13:20");  // the default format
  EXPECT_EQ(cells[1].text, "22:14:10,122");         // 22:13:20 + 50.122 s
  EXPECT_EQ(cells[2].text, "50.122");               // a duration stays a number
  ASSERT_TRUE(cells[0].instant && cells[1].instant);
  EXPECT_EQ(cells[0].instant->iso, "2023-11-14T22:13:20Z");
  EXPECT_EQ(cells[1].instant->iso, "2023-11-14T22:14:10.122Z");
  EXPECT_FALSE(cells[2].instant);
  // the zone is the header's unit
  EXPECT_EQ(header_text(table, 0), "start (UTC)");
  EXPECT_EQ(header_text(table, 2), "startup_s");
}

TEST(TableRunTimes, ATimeZoneShiftsTheCalendarTime) {
  ColumnSpec start = time_column("start");
  start.tz = "+02:00";  // 22:13:20 UTC = 00:13:20 the next day at +02:00
  const Table table =
      build_table(testing::make_case(), make_table({"hidden"}, {start}), {timed_run("64", 0)});
  EXPECT_EQ(table.rows[0].cells[0].text, "2023-11-15 00:13:20");
  EXPECT_EQ(table.rows[0].cells[0].instant->iso, "2023-11-15T00:13:20+02:00");
  EXPECT_EQ(header_text(table, 0), "start (+02:00)");
}

TEST(TableRunTimes, TheCaseStartupZoneIsTheDefault) {
  CaseSpec c = testing::make_case();
  c.startup.tz = "-0500";  // stamps read at -05:00 are shown at -05:00: 17:13:20
  const Table table =
      build_table(c, make_table({"hidden"}, {time_column("start")}), {timed_run("64", 0)});
  EXPECT_EQ(table.rows[0].cells[0].text, "2023-11-14 17:13:20");
}

TEST(TableRunTimes, RepeatsAggregateByFirstLastMinMax) {
  // repeats 0, 1, 2 started at kT + 60, kT, kT + 30: first = repeat 0 (22:14:20), min 22:13:20,
  // max 22:14:20, last = repeat 2 (22:13:50)
  const std::vector<RunRecord> runs{timed_run("64", 60, 0), timed_run("64", 0, 1),
                                    timed_run("64", 30, 2)};
  const TableSpec t = make_table(
      {"hidden"}, {time_column("start", "%H:%M:%S"), time_column("start", "%H:%M:%S", "min"),
                   time_column("start", "%H:%M:%S", "max"),
                   time_column("start", "%H:%M:%S", "last"), time_column("start", {}, "n")});
  const Table table = build_table(testing::make_case(), t, runs);
  const auto& cells = table.rows[0].cells;
  EXPECT_EQ(cells[0].text, "22:14:20");
  EXPECT_EQ(cells[1].text, "22:13:20");
  EXPECT_EQ(cells[2].text, "22:14:20");
  EXPECT_EQ(cells[3].text, "22:13:50");
  EXPECT_EQ(cells[4].text, "3");  // a count, not a time
  EXPECT_FALSE(cells[4].instant);
  EXPECT_EQ(cells[0].instant->min_text, "22:13:20");
  EXPECT_EQ(cells[0].instant->iso_max, "2023-11-14T22:14:20Z");
  EXPECT_THAT(render_markdown(table), HasSubstr("| 22:14:20 (22:13:20–22:14:20, n=3) |"));
}

TEST(TableRunTimes, MedianOfInstantsIsRefusedNamingTheColumn) {
  const TableSpec t = make_table({"hidden"}, {time_column("start", {}, "median")});
  try {
    build_table(testing::make_case(), t, {timed_run("64", 0)});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/cases/demo.yaml:20:3: tables.demo.columns.start.agg: "
                                    "'start' is a calendar time: aggregate it with first, last, "
                                    "min, max, n"));
  }
}

TEST(TableRunTimes, AReferenceOrASpeedupOnAnInstantIsRefused) {
  TableSpec t = make_table({"hidden"}, {time_column("start")});
  t.references = {testing::reference(params({{"hidden", "64"}}), "start", 1)};
  EXPECT_THROW(build_table(testing::make_case(), t, {timed_run("64", 0)}), InputError);
  ColumnSpec speedup = time_column("start");
  speedup.speedup_of = params({{"hidden", "128"}});
  EXPECT_THROW(
      build_table(testing::make_case(), make_table({"hidden"}, {speedup}), {timed_run("64", 0)}),
      InputError);
}

TEST(TableRunTimes, CsvAndJsonCarryIso8601) {
  const TableSpec t = make_table({"hidden"}, {time_column("start"), time_column("first_step")});
  const Table table = build_table(testing::make_case(), t, {timed_run("64", 0)});
  const std::string csv = render_csv(table);
  EXPECT_THAT(csv, HasSubstr("64,2023-11-14T22:13:20Z,2023-11-14T22:13:20Z,2023-11-14T22:13:20Z,1,"
                             "2023-11-14T22:14:10.122Z,"));
  EXPECT_THAT(render_json(table), HasSubstr("\"start\": {\"text\": \"2023-11-14 22:13:20\", "
                                            "\"value\": \"2023-11-14T22:13:20Z\", \"min\": "
                                            "\"2023-11-14T22:13:20Z\""));
  EXPECT_THAT(render_latex(table), HasSubstr("2023-11-14 22:13:20"));
  EXPECT_THAT(render_html(table), HasSubstr("2023-11-14 22:13:20"));
}

TEST(TableRunTimes, AParameterNamedStartHidesTheRunTime) {
  CaseSpec c = testing::make_case();
  ParamSpec start;
  start.name = "start";
  start.values = {Value::parse("cold")};
  c.params.push_back(start);
  RunRecord r = timed_run("64", 0);
  r.params.emplace_back("start", Value::parse("cold"));
  const Table table = build_table(c, make_table({"hidden"}, {column("start")}), {r});
  EXPECT_EQ(table.rows[0].cells[0].text, "cold");
}

TEST(TableRunTimes, FormulasSeeInstantsAsEpochSecondsAndQueueWait) {
  TableSpec t = make_table({"hidden"}, {column("to_step", "median", ".3f"), column("queue")});
  TableDerive to_step{"to_step", "first_step - start", "s", SourceLoc{"/cases/demo.yaml", 30, 7}};
  TableDerive queue{"queue", "queue_wait_s / 60", "min", SourceLoc{"/cases/demo.yaml", 31, 7}};
  t.derive = {to_step, queue};
  RunRecord r = timed_run("64", 0);
  r.queue_wait_s = 90;  // 90 s = 1.5 min
  const Table table = build_table(testing::make_case(), t, {r});
  EXPECT_EQ(table.rows[0].cells[0].text, "50.122");
  EXPECT_DOUBLE_EQ(*table.rows[0].cells[1].value, 1.5);
}

}  // namespace
}  // namespace aerun
