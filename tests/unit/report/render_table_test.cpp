#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/report/table.hpp"
#include "table_fixture.hpp"

using namespace aerun;
using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

// hidden 64: three ok repeats and a paper value; 128: out of memory; 256: only in the paper.
Table small_table() {
  TableSpec spec = make_table({"hidden"}, {column("iter_ms"), column("batch")});
  spec.tolerance = 0.1;
  spec.references.push_back(reference(params({{"hidden", "64"}}), "iter_ms", 12));
  spec.references.push_back(reference(params({{"hidden", "256"}}), "iter_ms", 40));
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}, {"batch", "32"}}), "ok", {{"iter_ms", 12.75}}, 0),
      make_run(params({{"hidden", "64"}, {"batch", "32"}}), "ok", {{"iter_ms", 12.25}}, 1),
      make_run(params({{"hidden", "64"}, {"batch", "32"}}), "ok", {{"iter_ms", 13.5}}, 2),
      make_run(params({{"hidden", "128"}, {"batch", "32"}}), "oom")};
  return build_table(make_case(), spec, runs);
}

}  // namespace

TEST(RenderMarkdown, ShowsHeadingSpreadPaperAndRatioColumnsAndALegend) {
  EXPECT_EQ(render_markdown(small_table()),
            "### Iteration time of the demo MLP (Table D1, aerun demo (CPU MLP))\n"
            "\n"
            "| hidden | iter_ms | paper | ratio | batch |\n"
            "|:---|---:|---:|---:|---:|\n"
            "| 64 | 12.75 (12.2–13.5, n=3) | 12 | 1.06 ✓ | 32 |\n"
            "| 128 | OOM |  |  | 32 |\n"
            "| 256 | missing | 40 | — | missing |\n"
            "\n"
            "ratio = measured / paper; ✓ within ±10% of the paper value (tolerance 0.1), ✗ "
            "outside. 1 of 1 compared cells pass.\n");
}

TEST(RenderMarkdown, MarksAFailingRatioAndShowsNoSpreadForASingleValue) {
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  spec.tolerance = 0.5;
  spec.references.push_back(reference(params({{"hidden", "64"}}), "iter_ms", 1));
  const Table t = build_table(make_case(), spec,
                              {make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 2}})});

  EXPECT_THAT(render_markdown(t), HasSubstr("| 64 | 2 | 1 | 2.00 ✗ |\n"));
  EXPECT_THAT(render_markdown(t), HasSubstr("±50%"));
  EXPECT_THAT(render_markdown(t), HasSubstr("0 of 1 compared cells pass"));
}

TEST(RenderMarkdown, HeadingLeavesOutFigureAndPaperWhenNotGivenAndHasNoLegendWithoutReferences) {
  CaseSpec c = make_case();
  c.paper.clear();
  c.figure.clear();
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  spec.title.clear();
  const std::string md = render_markdown(build_table(c, spec, {}));

  EXPECT_THAT(md, StartsWith("### demo\n\n| hidden | iter_ms |\n"));
  EXPECT_THAT(md, HasSubstr("(no runs)"));
  EXPECT_THAT(md, ::testing::Not(HasSubstr("ratio")));
}

TEST(RenderMarkdown, EscapesPipesInCells) {
  const Table t = build_table(make_case(), make_table({"method"}, {column("iter_ms")}),
                              {make_run(params({{"method", "a|b"}}), "ok", {{"iter_ms", 1}})});
  EXPECT_THAT(render_markdown(t), HasSubstr("| a\\|b | 1 |"));
}

// Issue 28: a title with a newline (a case's, or a merged store's) broke the Markdown after it.
TEST(RenderMarkdown, TheHeadingIsOneLineWhateverTheTitleHolds) {
  CaseSpec c = make_case();
  c.figure = "Fig.\n7";
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  spec.title = "a\n| x | y |\n\x1b[2J";
  const std::string md = render_markdown(build_table(c, spec, {}));
  const std::string heading = md.substr(0, md.find('\n'));
  EXPECT_EQ(heading.rfind("### a ", 0), 0u) << heading;
  EXPECT_THAT(heading, HasSubstr("\\x1b[2J"));
  EXPECT_THAT(heading, HasSubstr("(Fig. 7"));
  EXPECT_THAT(md.substr(md.find('\n')), StartsWith("\n\n| hidden | iter_ms |\n"));
}

// Issue 28: "a\|b" showed as "a|b" on GitHub (the pipe's escape ate the backslash): a backslash
// is escaped too.
TEST(RenderMarkdown, EscapesBackslashesSoABackslashBeforeAPipeIsShown) {
  const Table t = build_table(make_case(), make_table({"method"}, {column("iter_ms")}),
                              {make_run(params({{"method", "a\\|b"}}), "ok", {{"iter_ms", 1}})});
  EXPECT_THAT(render_markdown(t), HasSubstr("| a\\\\\\|b | 1 |"));
}

TEST(RenderCsv, HasAHeaderRowAndOneColumnPerValueWithStatsAndPaperColumns) {
  EXPECT_EQ(render_csv(small_table()),
            "hidden,iter_ms,iter_ms_min,iter_ms_max,iter_ms_n,iter_ms_paper,iter_ms_ratio,"
            "iter_ms_pass,batch\n"
            "64,12.75,12.25,13.5,3,12,1.0625,true,32\n"
            "128,OOM,,,,,,,32\n"
            "256,missing,,,,40,,,missing\n");
}

TEST(RenderCsv, QuotesFieldsHoldingCommasOrQuotes) {
  const Table t = build_table(make_case(), make_table({"method"}, {column("iter_ms")}),
                              {make_run(params({{"method", "a,\"b\""}}), "ok", {{"iter_ms", 1}})});
  EXPECT_EQ(render_csv(t),
            "method,iter_ms,iter_ms_min,iter_ms_max,iter_ms_n\n"
            "\"a,\"\"b\"\"\",1,1,1,1\n");
}

TEST(RenderJson, WritesEveryNumberAsAJsonNumberAndNullWhenMissing) {
  EXPECT_EQ(render_json(small_table()),
            "{\n"
            "  \"name\": \"demo\",\n"
            "  \"title\": \"Iteration time of the demo MLP\",\n"
            "  \"case\": \"demo\",\n"
            "  \"paper\": \"aerun demo (CPU MLP)\",\n"
            "  \"figure\": \"Table D1\",\n"
            "  \"tolerance\": 0.1,\n"
            "  \"row_params\": [\"hidden\"],\n"
            "  \"columns\": [\"iter_ms\", \"batch\"],\n"
            "  \"rows\": [\n"
            "    {\"key\": {\"hidden\": 64}, \"cells\": {"
            "\"iter_ms\": {\"text\": \"12.75\", \"value\": 12.75, \"min\": 12.25, \"max\": 13.5, "
            "\"n\": 3, \"planned\": null, \"paper\": 12, \"ratio\": 1.0625, \"pass\": true}, "
            "\"batch\": {\"text\": \"32\", \"value\": 32, \"min\": null, \"max\": null, \"n\": "
            "null, \"planned\": null, "
            "\"paper\": null, \"ratio\": null, \"pass\": null}}},\n"
            "    {\"key\": {\"hidden\": 128}, \"cells\": {"
            "\"iter_ms\": {\"text\": \"OOM\", \"value\": null, \"min\": null, \"max\": null, "
            "\"n\": null, \"planned\": null, \"paper\": null, \"ratio\": null, \"pass\": null}, "
            "\"batch\": {\"text\": \"32\", \"value\": 32, \"min\": null, \"max\": null, \"n\": "
            "null, \"planned\": null, "
            "\"paper\": null, \"ratio\": null, \"pass\": null}}},\n"
            "    {\"key\": {\"hidden\": 256}, \"cells\": {"
            "\"iter_ms\": {\"text\": \"missing\", \"value\": null, \"min\": null, \"max\": null, "
            "\"n\": null, \"planned\": null, \"paper\": 40, \"ratio\": null, \"pass\": null}, "
            "\"batch\": {\"text\": \"missing\", \"value\": null, \"min\": null, \"max\": null, "
            "\"n\": null, \"planned\": null, \"paper\": null, \"ratio\": null, \"pass\": null}}}\n"
            "  ]\n"
            "}\n");
}

TEST(RenderJson, WritesStringKeysAsStringsAndAnEmptyTableAsAnEmptyArray) {
  const Table t = build_table(make_case(), make_table({"method"}, {column("iter_ms")}),
                              {make_run(params({{"method", "l2l"}}), "ok", {{"iter_ms", 1}})});
  EXPECT_THAT(render_json(t), HasSubstr("{\"key\": {\"method\": \"l2l\"}"));
  EXPECT_THAT(render_json(build_table(make_case(), make_table({"method"}, {}), {})),
              HasSubstr("\"rows\": []\n}\n"));
}

TEST(RenderLatexAndHtml, ControlAndStrayBytesNeverReachTheLatexSource) {
  // Issue 40: a merged store's parameter value with NUL, ESC, CR and a byte that is not UTF-8.
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  const std::string odd = std::string("a") + std::string(1, '\0') +
                          "\x1b[31m\rb\xff"
                          "c caf\xc3\xa9";
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", odd}}), "ok", {{"iter_ms", 12.5}})};
  const std::string tex = render_latex(build_table(make_case(), spec, runs));
  EXPECT_EQ(tex.find('\0'), std::string::npos);
  EXPECT_EQ(tex.find('\x1b'), std::string::npos);
  EXPECT_EQ(tex.find('\r'), std::string::npos);
  EXPECT_EQ(tex.find('\xff'), std::string::npos);
  EXPECT_THAT(tex, HasSubstr("\\textbackslash{}x1b"));
  EXPECT_THAT(tex, HasSubstr("\\textbackslash{}xff"));
  EXPECT_THAT(tex, HasSubstr("caf\xc3\xa9"));
}

TEST(RenderLatexAndHtml, SetStatusesApartButNotTextParameters) {
  // "Y" is a parameter's text (the seed's DS column), "OOM" a run's status, "missing" no run.
  TableSpec spec = make_table({"hidden"}, {column("iter_ms"), column("ds")});
  const std::vector<RunRecord> runs = {
      make_run(params({{"hidden", "64"}, {"ds", "Y"}}), "ok", {{"iter_ms", 12.5}}),
      make_run(params({{"hidden", "128"}, {"ds", "Y"}}), "oom")};
  spec.references.push_back(reference(params({{"hidden", "256"}}), "iter_ms", 40));
  const Table t = build_table(make_case(), spec, runs);
  const std::string tex = render_latex(t);
  EXPECT_THAT(tex, HasSubstr("64 & 12.5 &  &  & Y \\\\"));
  EXPECT_THAT(tex, HasSubstr("128 & \\textit{OOM} &  &  & Y \\\\"));
  EXPECT_THAT(tex, HasSubstr("\\textit{missing}"));
  const std::string html = render_html(t);
  EXPECT_THAT(html, HasSubstr("<td>Y</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"status\">OOM</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"missing\">missing</td>"));
}
