// Figures: least-squares fits and the gnuplot script of a plot. Expected values by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "aerun/report/history.hpp"
#include "aerun/report/plot.hpp"
#include "aerun/util/gnuplot_text.hpp"

namespace aerun {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(FitLinear, RecoversAnExactLineWithRSquaredOne) {
  const auto f = fit_linear({1, 2, 3}, {5, 7, 9});  // y = 2x + 3
  ASSERT_TRUE(f);
  EXPECT_DOUBLE_EQ(f->slope, 2);
  EXPECT_DOUBLE_EQ(f->intercept, 3);
  EXPECT_DOUBLE_EQ(f->r2, 1);
}

TEST(FitLinear, GivesTheLeastSquaresLineAndItsRSquared) {
  // x 0,1,2,3; y 1,3,2,4: mean x 1.5, mean y 2.5; Sxy = 2.25-0.25-0.25+2.25 = 4, Sxx = 5 ->
  // slope 0.8, intercept 2.5-1.2 = 1.3; residuals -0.3, 0.9, -0.9, 0.3 -> SSres 1.8; SStot 5
  // -> R² = 1 - 1.8/5 = 0.64.
  const auto f = fit_linear({0, 1, 2, 3}, {1, 3, 2, 4});
  ASSERT_TRUE(f);
  EXPECT_NEAR(f->slope, 0.8, 1e-12);
  EXPECT_NEAR(f->intercept, 1.3, 1e-12);
  EXPECT_NEAR(f->r2, 0.64, 1e-12);
}

TEST(FitLinear, NeedsTwoDistinctX) {
  EXPECT_FALSE(fit_linear({1}, {1}));
  EXPECT_FALSE(fit_linear({2, 2}, {1, 3}));
}

PlotData line_plot() {
  PlotData d;
  d.spec.name = "fig8b";
  d.spec.kind = "line";
  d.spec.fit_linear = true;
  d.title = "Fig. 8b: time vs layers";
  d.xlabel = "layers";
  d.ylabel = "iteration (ms)";
  d.case_name = "stronghold-fig8b";
  PlotSeries s;
  s.x_text = {"32", "16", "48"};
  s.x = {32, 16, 48};
  s.y = {6000.0, 3000.0, std::nullopt};
  s.y_text = {"6000", "3000", "OOM"};
  s.paper = {6050.0, std::nullopt, std::nullopt};
  s.fit = fit_linear({16, 32}, {3000, 6000});
  d.series.push_back(s);
  return d;
}

TEST(GnuplotScript, EveryTerminalDrawsUnderscoresAsTheyAre) {
  // Switching to pngcairo resets `set termoption noenhanced`: each terminal line says it.
  const std::string gp = gnuplot_script(line_plot(), "fig8b");
  EXPECT_THAT(gp, HasSubstr("set terminal svg size 900,560 dynamic noenhanced"));
  EXPECT_THAT(gp, HasSubstr("set terminal pngcairo size 1200,750 noenhanced"));
}

TEST(GnuplotScript, DrawsSvgAndPngWithDataInlineSortedByXAndThePapersPoints) {
  const std::string gp = gnuplot_script(line_plot(), "fig8b");
  EXPECT_THAT(gp, HasSubstr("set terminal svg"));
  EXPECT_THAT(gp, HasSubstr("set output 'fig8b.svg'"));
  EXPECT_THAT(gp, HasSubstr("set terminal pngcairo"));
  EXPECT_THAT(gp, HasSubstr("set output 'fig8b.png'"));
  EXPECT_THAT(gp, HasSubstr("$s0 << EOD\n16 3000\n32 6000\n48 NaN\nEOD\n"));
  EXPECT_THAT(gp, HasSubstr("$p0 << EOD\n32 6050\nEOD\n"));
  EXPECT_THAT(gp, HasSubstr("f0(x) = 187.5 * x + 0"));  // (6000-3000)/(32-16)
  EXPECT_THAT(gp, HasSubstr("R² = 1.0000"));
  EXPECT_THAT(gp, HasSubstr("set label 'OOM' at 48, graph 0.04"));  // never drawn as zero
}

TEST(GnuplotScript, BarsClusterEachCategoryWithThePapersBars) {
  PlotData d;
  d.spec.name = "fig6a";
  d.spec.kind = "bars";
  d.ylabel = "layers";
  d.categories = {"l2l", "megatron-lm"};
  PlotSeries s;
  s.x_text = {"l2l", "megatron-lm"};
  s.x = {NAN, NAN};
  s.y = {78.0, 32.0};
  s.y_text = {"78", "32"};
  s.paper = {78.0, 32.0};
  d.series.push_back(s);
  const std::string gp = gnuplot_script(d, "fig6a");
  EXPECT_THAT(gp, HasSubstr("$bars << EOD\n0 78 78\n1 32 32\nEOD\n"));
  EXPECT_THAT(gp, HasSubstr("set style histogram clustered"));
  EXPECT_THAT(gp, HasSubstr("set xtics rotate by -20 ('l2l' 0, 'megatron-lm' 1)"));
  EXPECT_THAT(gp, HasSubstr("$bars using 2 title 'layers'"));
  EXPECT_THAT(gp, HasSubstr("'' using 3 fs pattern 4 border title 'paper'"));
}

// Every text a figure shows comes from a store: parameter values, case and series names, a
// log file's name through ingest --pattern, another site's merged store. None may end its line,
// its datablock or its string (issue 28: a newline ran `system(...)`, a line EOD ended the
// bars' datablock, `c" 999 "x` drew the bar of c at 999). The scripts run in real gnuplot.
const char* const kHostile[] = {
    "a\nsystem(\"touch PWNED\")\n#",
    "b'\nsystem('touch PWNED')\n#",
    "EOD\nsystem(\"touch PWNED\")\n$bars << EOD",
    "c\" 999 \"x",
    "d\r\x1b]0;title\x07\x7f`touch PWNED`@x",
    "e\\\nsystem(\"touch PWNED\")",
};

PlotData hostile_plot(const std::string& kind) {
  PlotData d;
  d.spec.name = kHostile[0];
  d.spec.kind = kind;
  d.spec.paper = true;
  d.case_name = kHostile[1];
  d.title = kHostile[2];
  d.xlabel = kHostile[3];
  d.ylabel = kHostile[4];
  for (const char* name : kHostile) {
    PlotSeries s;
    s.name = name;
    for (int i = 0; i < 6; ++i) {
      s.x_text.push_back(kind == "bars" ? kHostile[i] : std::to_string(i + 1));
      s.x.push_back(kind == "bars" ? NAN : i + 1);
      s.y.push_back(i == 5 ? std::nullopt : std::optional<double>(10.0 * (i + 1)));
      s.y_text.push_back(i == 5 ? kHostile[i] : std::to_string(10 * (i + 1)));
      s.paper.push_back(5.0);
    }
    s.fit = kind == "bars" ? std::nullopt : fit_linear({1, 2}, {10, 20});
    d.series.push_back(s);
  }
  if (kind == "bars") d.categories.assign(std::begin(kHostile), std::end(kHostile));
  return d;
}

// Runs gnuplot on `script` in a fresh folder; returns whether PWNED appeared, and the exit code.
std::pair<bool, int> run_in_gnuplot(const std::string& script) {
  char tmpl[] = "/tmp/aerun-gp-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  {
    std::ofstream f(dir + "/f.gp");
    f << script;
  }
  const int rc = std::system(("cd " + dir + " && gnuplot f.gp >/dev/null 2>&1").c_str());
  const bool pwned = std::filesystem::exists(dir + "/PWNED");
  std::filesystem::remove_all(dir);
  return {pwned, WIFEXITED(rc) ? WEXITSTATUS(rc) : -1};
}

TEST(GnuplotScript, NoStoredTextEndsItsLineItsStringOrItsDatablock) {
  for (const std::string kind : {"line", "bars"}) {
    const std::string gp = gnuplot_script(hostile_plot(kind), "fig");
    EXPECT_THAT(gp, Not(HasSubstr("\nsystem("))) << kind;
    EXPECT_THAT(gp, Not(HasSubstr("\nEOD\nsystem"))) << kind;
    EXPECT_THAT(gp, Not(HasSubstr("\x1b"))) << kind;
    EXPECT_THAT(gp, Not(HasSubstr("\r"))) << kind;
    if (kind == "bars") {
      // Six categories, one row each, numbers only; the texts are the tics' labels.
      EXPECT_THAT(gp, HasSubstr("$bars << EOD\n0 10 10 10 10 10 10 5 5 5 5 5 5\n"));
      EXPECT_THAT(gp, HasSubstr("'c\" 999 \"x' 3"));
      EXPECT_THAT(gp, HasSubstr("'b''\\x0asystem(''touch PWNED'')\\x0a#' 1"));
    }
    if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) continue;
    const auto [pwned, rc] = run_in_gnuplot(gp);
    EXPECT_FALSE(pwned) << kind;
    EXPECT_EQ(rc, 0) << kind << "\n" << gp;
  }
}

TEST(GnuplotScript, HistoryFiguresQuoteSessionLabelsPointsAndNamesTheSameWay) {
  History h;
  h.case_name = kHostile[0];
  h.metric = kHostile[1];
  h.unit = kHostile[2];
  h.baseline = kHostile[3];
  for (const char* label : kHostile) h.sessions.push_back({label, {}});
  for (const char* point : kHostile) {
    HistoryPoint p;
    p.point = point;
    for (size_t i = 0; i < h.sessions.size(); ++i) {
      HistoryCell c;
      c.median = c.min = c.max = 1.0 + static_cast<double>(i);
      c.n = 1;
      if (i == 2) c.verdict = RegressVerdict::Regressed;
      p.cells.push_back(c);
    }
    h.points.push_back(p);
  }
  const std::string gp = history_gnuplot_script(h, "hist");
  EXPECT_THAT(gp, Not(HasSubstr("\nsystem(")));
  EXPECT_THAT(gp, Not(HasSubstr("\x1b")));
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) return;
  const auto [pwned, rc] = run_in_gnuplot(gp);
  EXPECT_FALSE(pwned);
  EXPECT_EQ(rc, 0) << gp;
}

// Issue 28: the night every run went OOM is the night the figures matter most; gnuplot refused an
// empty plot ("x range is invalid") and the whole report failed.
TEST(GnuplotScript, AFigureWithNoMeasuredPointIsDrawnWithItsFailuresNamed) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no gnuplot";
  for (const std::string kind : {"line", "bars"}) {
    PlotData d = hostile_plot(kind);
    for (auto& s : d.series) {
      std::fill(s.y.begin(), s.y.end(), std::nullopt);
      std::fill(s.y_text.begin(), s.y_text.end(), "OOM");
      std::fill(s.paper.begin(), s.paper.end(), std::nullopt);
      s.fit.reset();
    }
    const std::string gp = gnuplot_script(d, "fig");
    EXPECT_THAT(gp, HasSubstr("set yrange [0:1]")) << kind;
    EXPECT_EQ(run_in_gnuplot(gp).second, 0) << kind << "\n" << gp;
  }
  History h;
  h.case_name = "oom";
  h.metric = "iter_ms";
  for (const char* label : {"n1", "n2"}) h.sessions.push_back({label, {}});
  HistoryPoint p;
  p.point = "hidden=64";
  p.cells.resize(2);
  p.cells[0].status = p.cells[1].status = "3 oom";
  h.points.push_back(p);
  const std::string gp = history_gnuplot_script(h, "hist");
  EXPECT_THAT(gp, HasSubstr("set xrange [-0.5:1.5]"));
  EXPECT_EQ(run_in_gnuplot(gp).second, 0) << gp;
}

TEST(GnuplotString, IsOneSingleQuotedLineWithControlCharactersAsText) {
  EXPECT_EQ(gnuplot_string("it's"), "'it''s'");
  EXPECT_EQ(gnuplot_string("a\nb\r\x1b\x7f"), "'a\\x0ab\\x0d\\x1b\\x7f'");
  EXPECT_EQ(gnuplot_string(std::string("n\0ul", 4)), "'n\\x00ul'");
  EXPECT_EQ(gnuplot_string("`date` @m \"q\""), "'`date` @m \"q\"'");  // inert in single quotes
  EXPECT_EQ(gnuplot_comment("# x\nsystem('y')"), "# x\\x0asystem('y')");
}

}  // namespace
}  // namespace aerun
