// A speedup column with the paper's speedups: a reference names the column by its label and gets
// paper, ratio and pass like a measured column. Expected values by hand.
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
using testing::reference;

ParamList row(const std::string& method, const std::string& layers) {
  return params({{"method", method}, {"layers", layers}});
}

TableSpec fig7a_like() {
  ColumnSpec sps = column("samples_per_s", "median", ".4f");
  ColumnSpec speedup = column("samples_per_s", "median", ".2f");
  speedup.speedup_of = params({{"method", "stronghold"}});
  speedup.label = "STRONGHOLD speedup";
  TableSpec t = make_table({"method", "layers"}, {sps, speedup});
  t.tolerance = 0.15;
  return t;
}

std::vector<RunRecord> fig7a_runs() {
  return {make_run(row("zero-offload", "48"), "ok", {{"samples_per_s", 0.2520}}),
          make_run(row("stronghold", "48"), "ok", {{"samples_per_s", 0.3979}}),
          make_run(row("l2l", "78"), "ok", {{"samples_per_s", 0.0529}}),
          make_run(row("stronghold", "78"), "ok", {{"samples_per_s", 0.1500}})};
}

TEST(SpeedupReference, TheLabelNamesTheSpeedupColumnAndTheSourceTheMeasuredOne) {
  TableSpec t = fig7a_like();
  // The notebook's throughputs 0.3999 / 0.2523 = 1.585 and 0.2271 / 0.0529 = 4.293.
  t.references = {reference(row("zero-offload", "48"), "STRONGHOLD speedup", 1.585),
                  reference(row("l2l", "78"), "STRONGHOLD speedup", 4.293),
                  reference(row("zero-offload", "48"), "samples_per_s", 0.2523)};
  const Table table = build_table(testing::make_case(), t, fig7a_runs());
  ASSERT_EQ(table.rows.size(), 4u);  // l2l 78, stronghold 48, stronghold 78, zero-offload 48
  // zero-offload 48: measured 0.3979 / 0.2520 = 1.57897; ratio 1.57897 / 1.585 = 0.99620: pass
  const TableCell& zo = table.rows[3].cells[1];
  EXPECT_EQ(zo.text, "1.58");
  ASSERT_TRUE(zo.paper && zo.ratio && zo.pass);
  EXPECT_DOUBLE_EQ(*zo.paper, 1.585);
  EXPECT_NEAR(*zo.ratio, (0.3979 / 0.2520) / 1.585, 1e-12);
  EXPECT_TRUE(*zo.pass);
  // l2l 78: measured 0.15 / 0.0529 = 2.83554; ratio / 4.293 = 0.66051: outside 15%
  const TableCell& l2l = table.rows[0].cells[1];
  EXPECT_NEAR(*l2l.ratio, (0.15 / 0.0529) / 4.293, 1e-12);
  EXPECT_FALSE(*l2l.pass);
  // the throughput reference went to the throughput column, not to the speedup
  EXPECT_DOUBLE_EQ(*table.rows[3].cells[0].paper, 0.2523);
  // STRONGHOLD's own rows have no speedup and no reference
  EXPECT_EQ(table.rows[1].cells[1].text, "—");
  EXPECT_FALSE(table.rows[1].cells[1].paper);
  // Markdown puts paper and ratio after the speedup column: 1.585 and 0.99620 -> "1.00 ✓"
  EXPECT_THAT(
      render_markdown(table),
      HasSubstr("| zero-offload | 48 | 0.2520 | 0.2523 | 1.00 ✓ | 1.58 | 1.585 | 1.00 ✓ |"));
}

TEST(SpeedupReference, ASpeedupRowWithoutAValueShowsThePaperAndADash) {
  TableSpec t = fig7a_like();
  t.references = {reference(row("zero-infinity", "48"), "STRONGHOLD speedup", 1.640)};
  const Table table = build_table(testing::make_case(), t, fig7a_runs());
  // a row only the reference names: missing, with the paper's 1.64 beside it and no ratio
  const auto it = std::find_if(table.rows.begin(), table.rows.end(),
                               [](const Table::Row& r) { return r.key[0] == "zero-infinity"; });
  ASSERT_NE(it, table.rows.end());
  EXPECT_EQ(it->cells[1].text, "missing");
  EXPECT_DOUBLE_EQ(*it->cells[1].paper, 1.64);
  EXPECT_FALSE(it->cells[1].ratio);
}

TEST(SpeedupReference, AnUnknownColumnNamesTheColumnsAReferenceCanUse) {
  TableSpec t = fig7a_like();
  t.references = {reference(row("l2l", "78"), "speedup", 4.293)};
  try {
    build_table(testing::make_case(), t, fig7a_runs());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/cases/demo.yaml:24:7: tables.demo.reference: 'speedup' is "
                                    "not a column of table 'demo' (columns: samples_per_s, "
                                    "STRONGHOLD speedup)"));
  }
}

}  // namespace
}  // namespace aerun
