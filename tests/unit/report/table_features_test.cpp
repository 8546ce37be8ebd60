// Table specifications of issue 6: derived metrics (muparserx), largest_ok, speedups between rows,
// pivots, runs of other cases, units; LaTeX and HTML output. Expected values computed by hand.
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

const char* const kModelSize =
    "(layers*(12*hidden^2 + 13*hidden) + vocab*hidden + seq*hidden + 2*hidden) / 1e9";
const char* const kTflops = "model_size_B * 4 * 2 * seq * batch / (iter_ms / 1000 * gpus * 1e3)";

ParamList gpt(const std::string& method, const std::string& layers) {
  return params({{"method", method},
                 {"layers", layers},
                 {"hidden", "2048"},
                 {"seq", "1024"},
                 {"vocab", "50304"},
                 {"batch", "4"},
                 {"gpus", "1"}});
}

TEST(TableDerive, Seed004ModelSizeAndTflopsFormulasGiveTheLogsNumbers) {
  // 32 layers, h 2048: 32*(12*2048^2 + 13*2048) = 1611464704; v*h = 50304*2048 = 103022592;
  // s*h = 2097152; 2h = 4096 -> 1716588544 parameters = 1.716588544 B (the log: 1.717 B).
  // TFLOPs at 6051.8 ms: 1.716588544 * 32768 = 56249.17; / (6.0518 * 1 * 1e3) = 9.2946 (log: 9.29).
  TableSpec t = make_table({"method"}, {column("model_size_B"), column("tflops")});
  t.derive = {derive("model_size_B", kModelSize, "B"), derive("tflops", kTflops, "TFLOP/s")};
  const std::vector<RunRecord> runs{make_run(gpt("stronghold", "32"), "ok", {{"iter_ms", 6051.8}})};
  const Table table = build_table(testing::make_case(), t, runs);
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_NEAR(*table.rows[0].cells[0].value, 1.716588544, 1e-12);
  EXPECT_NEAR(*table.rows[0].cells[1].value, 9.29462, 1e-4);
  EXPECT_EQ(table.units, (std::vector<std::string>{"B", "TFLOP/s"}));
  EXPECT_EQ(header_text(table, 1), "tflops (TFLOP/s)");
}

TEST(TableDerive, IsEvaluatedPerRunThenAggregatedAndMissingWhenAnInputIsMissing) {
  // samples/s = batch / (iter_ms / 1000): 4 / 2 = 2, 4 / 4 = 1, 4 / 8 = 0.5 -> median 1.
  TableSpec t = make_table({"method"}, {column("sps")});
  t.derive = {derive("sps", "batch / (iter_ms / 1000)")};
  const std::vector<RunRecord> runs{
      make_run(gpt("a", "1"), "ok", {{"iter_ms", 2000}}, 0),
      make_run(gpt("a", "1"), "ok", {{"iter_ms", 4000}}, 1),
      make_run(gpt("a", "1"), "ok", {{"iter_ms", 8000}}, 2),
      make_run(gpt("b", "1"), "ok", {{"other", 1}}),
  };
  const Table table = build_table(testing::make_case(), t, runs);
  EXPECT_EQ(*table.rows[0].cells[0].value, 1.0);
  EXPECT_EQ(table.rows[0].cells[0].n, 3);
  EXPECT_EQ(table.rows[1].cells[0].text, "missing");
}

TEST(TableDerive, OfParametersAloneIsShownForFailedRunsTooAndOfMetricsIsTheirStatus) {
  // gbs = batch * gpus * 8 = 4 * 1 * 8 = 32 from parameters alone (also through derived gbs2 =
  // gbs * 2 = 64); a run that ran out of memory has its global batch, not its speed.
  TableSpec t = make_table({"method"}, {column("gbs"), column("gbs2"), column("sps")});
  t.derive = {derive("gbs", "batch * gpus * 8"), derive("gbs2", "gbs * 2"),
              derive("sps", "gbs / (iter_ms / 1000)")};
  const std::vector<RunRecord> runs{make_run(gpt("a", "1"), "oom")};
  const Table table = build_table(testing::make_case(), t, runs);
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.rows[0].cells[0].text, "32");
  EXPECT_EQ(table.rows[0].cells[1].text, "64");
  EXPECT_EQ(table.rows[0].cells[2].text, "OOM");
}

TEST(TableDerive, AnUnknownVariableIsAnInputErrorNamingTheFormula) {
  TableSpec t = make_table({"method"}, {column("x")});
  t.derive = {derive("x", "iter_ms * nope")};
  try {
    build_table(testing::make_case(), t, {make_run(gpt("a", "1"), "ok", {{"iter_ms", 1}})});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown variable \"nope\""));
    EXPECT_THAT(e.what(), HasSubstr("tables.demo.derive.x"));
  }
}

TEST(LargestOk, IsTheLargestParameterValueAmongOkRunsAndTheStatusWhenNoneIsOk) {
  TableSpec t = make_table({"method"}, {column("layers", "largest_ok")});
  const std::vector<RunRecord> runs{
      make_run(gpt("megatron-lm", "24"), "ok"), make_run(gpt("megatron-lm", "32"), "ok"),
      make_run(gpt("megatron-lm", "40"), "oom"), make_run(gpt("l2l", "100"), "oom"),
      make_run(gpt("l2l", "120"), "failed")};
  const Table table = build_table(testing::make_case(), t, runs);
  ASSERT_EQ(table.rows.size(), 2u);  // l2l, megatron-lm
  EXPECT_EQ(table.rows[0].cells[0].text, "OOM/fail");
  EXPECT_FALSE(table.rows[0].cells[0].value);
  EXPECT_EQ(table.rows[1].cells[0].text, "32");
  EXPECT_EQ(*table.rows[1].cells[0].value, 32);
}

TEST(Speedup, IsTheOtherRowsValueOverThisRowsAtTheSameSizeAndADashForItself) {
  // STRONGHOLD 0.3999 over ZeRO-Offload 0.2523 = 1.58502 (.2f: 1.59); over itself: "—"; no
  // STRONGHOLD run at 78 layers: missing. Times (lower is better): 100 / 50 = 2.
  ColumnSpec s = column("samples_per_s");
  s.speedup_of = params({{"method", "stronghold"}});
  s.label = "speedup";
  ColumnSpec st = column("iter_ms");
  st.speedup_of = s.speedup_of;
  st.lower_is_better = true;
  st.label = "time speedup";
  TableSpec t = make_table({"method", "layers"}, {s, st});
  const std::vector<RunRecord> runs{
      make_run(gpt("zero-offload", "48"), "ok", {{"samples_per_s", 0.2523}, {"iter_ms", 100}}),
      make_run(gpt("stronghold", "48"), "ok", {{"samples_per_s", 0.3999}, {"iter_ms", 50}}),
      make_run(gpt("l2l", "78"), "ok", {{"samples_per_s", 0.0529}, {"iter_ms", 1}})};
  const Table table = build_table(testing::make_case(), t, runs);
  ASSERT_EQ(table.rows.size(), 3u);  // l2l 78, stronghold 48, zero-offload 48
  EXPECT_EQ(table.rows[0].cells[0].text, "missing");
  EXPECT_EQ(table.rows[1].cells[0].text, "—");
  EXPECT_EQ(table.rows[2].cells[0].text, "1.59");
  EXPECT_NEAR(*table.rows[2].cells[0].value, 0.3999 / 0.2523, 1e-12);
  EXPECT_EQ(table.rows[2].cells[1].text, "2.00");
}

TEST(Pivot, TurnsAParametersValuesIntoColumnGroupsAndLeavesMissingCombinationsBlank) {
  TableSpec t = make_table({"layers"}, {column("samples_per_s")});
  t.pivot = "method";
  t.references = {
      testing::reference(params({{"layers", "32"}, {"method", "l2l"}}), "samples_per_s", 0.2)};
  const std::vector<RunRecord> runs{
      make_run(gpt("stronghold", "32"), "ok", {{"samples_per_s", 0.66}}),
      make_run(gpt("l2l", "32"), "ok", {{"samples_per_s", 0.18}}),
      make_run(gpt("stronghold", "48"), "oom")};
  const Table table = build_table(testing::make_case(), t, runs);
  EXPECT_EQ(table.row_params, std::vector<std::string>{"layers"});
  EXPECT_EQ(table.columns, (std::vector<std::string>{"l2l", "stronghold"}));
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0].cells[0].text, "0.18");
  EXPECT_NEAR(*table.rows[0].cells[0].ratio, 0.9, 1e-12);  // 0.18 / 0.2
  EXPECT_EQ(table.rows[0].cells[1].text, "0.66");
  EXPECT_EQ(table.rows[1].cells[0].text, "");  // l2l never ran at 48 layers
  EXPECT_EQ(table.rows[1].cells[1].text, "OOM");
}

TEST(RunsFrom, ATableAlsoReadsTheRunsOfTheCasesItNames) {
  TableSpec t = make_table({"method"}, {column("samples_per_s")});
  RunRecord other = make_run(gpt("megatron-lm", "32"), "ok", {{"samples_per_s", 0.75}});
  other.case_name = "stronghold-fig6a";
  RunRecord stranger = make_run(gpt("l2l", "32"), "ok", {{"samples_per_s", 0.1}});
  stranger.case_name = "unrelated";
  const std::vector<RunRecord> runs{
      make_run(gpt("stronghold", "32"), "ok", {{"samples_per_s", 0.66}}), other, stranger};
  EXPECT_EQ(build_table(testing::make_case(), t, runs).rows.size(), 1u);
  t.runs_from = {"stronghold-fig6a"};
  const Table table = build_table(testing::make_case(), t, runs);
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0].key[0], "megatron-lm");
}

Table small_table() {
  TableSpec t = make_table({"method"}, {column("samples_per_s", "median", ".2f")});
  t.title = "Throughput & 100% of it_all";
  t.references = {testing::reference(params({{"method", "a_b"}}), "samples_per_s", 0.5),
                  testing::reference(params({{"method", "c"}}), "samples_per_s", 1.0)};
  const std::vector<RunRecord> runs{make_run(gpt("a_b", "1"), "ok", {{"samples_per_s", 0.5}}),
                                    make_run(gpt("c", "1"), "oom")};
  return build_table(testing::make_case(), t, runs);
}

TEST(RenderLatex, UsesBooktabsEscapesSpecialCharactersAndMarksPassAndStatus) {
  const std::string tex = render_latex(small_table());
  EXPECT_THAT(tex,
              HasSubstr("\\toprule\nmethod & samples\\_per\\_s & paper & ratio \\\\\n\\midrule\n"));
  EXPECT_THAT(tex, HasSubstr("a\\_b & 0.50 & 0.5 & 1.00\\,$\\surd$ \\\\\n"));
  EXPECT_THAT(tex, HasSubstr("c & \\textit{OOM} & 1 & -- \\\\\n\\bottomrule\n"));
  EXPECT_THAT(tex, HasSubstr("\\caption{Throughput \\& 100\\% of it\\_all (Table D1"));
}

TEST(RenderHtml, IsOneSelfContainedPageWithFailedCellsStyledAndPassMarks) {
  const std::string html = render_html(small_table());
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<style>"));
  EXPECT_THAT(html, HasSubstr("Throughput &amp; 100% of it_all"));
  EXPECT_THAT(html, HasSubstr("<td class=\"status\">OOM</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num pass\">1.00 ✓</td>"));
  EXPECT_THAT(html, ::testing::Not(HasSubstr("src=")));
}

}  // namespace
}  // namespace aerun
