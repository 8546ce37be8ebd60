// Outputs a program parses (issue 17): every number at full precision, no display dash for a
// missing value, an `agg: n` column that carries its count only.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/report/table.hpp"
#include "table_fixture.hpp"

using namespace aerun;
using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// hidden=64: 12 ms; hidden=128: 13.3 ms; a speedup column against hidden=64 (rounded to .2f).
Table speedup_table() {
  ColumnSpec ms = column("iter_ms");
  ColumnSpec speedup = column("iter_ms", "median", ".2f");
  speedup.speedup_of = params({{"hidden", "64"}});
  speedup.label = "speedup";
  return build_table(make_case(), make_table({"hidden"}, {ms, speedup}),
                     {make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 12.0}}),
                      make_run(params({{"hidden", "128"}}), "ok", {{"iter_ms", 13.3}})});
}

Table count_table() {
  return build_table(make_case(), make_table({"hidden"}, {column("iter_ms", "n", "")}),
                     {make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 0.813}}, 0),
                      make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 0.83}}, 1)});
}

}  // namespace

TEST(TableOutputs, CsvCarriesASpeedupAtFullPrecisionAndNothingForTheRowComparedWithItself) {
  const std::string csv = render_csv(speedup_table());
  EXPECT_EQ(csv,
            "hidden,iter_ms,iter_ms_min,iter_ms_max,iter_ms_n,speedup\n"
            "64,12,12,12,1,\n"
            "128,13.3,13.3,13.3,1,0.9022556390977443\n");
  // People still read the column's format, and a dash for the row compared with itself.
  const std::string md = render_markdown(speedup_table());
  EXPECT_THAT(md, HasSubstr("| 64 | 12 | — |"));
  EXPECT_THAT(md, HasSubstr("| 128 | 13.3 | 0.90 |"));
}

TEST(TableOutputs, JsonHasNullNotADashForTheRowComparedWithItself) {
  const std::string json = render_json(speedup_table());
  EXPECT_THAT(json, HasSubstr("\"speedup\": {\"text\": \"\", \"value\": null"));
  EXPECT_THAT(json, HasSubstr("\"value\": 0.9022556390977443"));
  EXPECT_THAT(json, Not(HasSubstr("—")));
}

TEST(TableOutputs, AnAggNColumnCarriesTheCountOnly) {
  EXPECT_EQ(render_csv(count_table()), "hidden,iter_ms\n64,2\n");
  EXPECT_THAT(render_json(count_table()),
              HasSubstr("{\"text\": \"2\", \"value\": 2, \"min\": null, \"max\": null, \"n\": 2,"));
  EXPECT_THAT(render_markdown(count_table()), HasSubstr("| 64 | 2 |"));
}
