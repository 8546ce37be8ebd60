// Figures: least-squares fits and the gnuplot script of a plot. Expected values by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "aerun/report/plot.hpp"

namespace aerun {
namespace {

using ::testing::HasSubstr;

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
  EXPECT_THAT(gp, HasSubstr("$bars << EOD\n\"l2l\" 78 78\n\"megatron-lm\" 32 32\nEOD\n"));
  EXPECT_THAT(gp, HasSubstr("set style histogram clustered"));
  EXPECT_THAT(gp, HasSubstr("using 2:xtic(1) title 'layers'"));
  EXPECT_THAT(gp, HasSubstr("'' using 3 fs pattern 4 border title 'paper'"));
}

}  // namespace
}  // namespace aerun
