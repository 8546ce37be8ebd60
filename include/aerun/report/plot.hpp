// Figures of a case: a plot's points taken from its table, and the gnuplot script drawing them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/report/table.hpp"

namespace aerun {

// y = slope * x + intercept, by least squares, with the coefficient of determination.
struct LinearFit {
  double slope = 0;
  double intercept = 0;
  double r2 = 0;
};

// Least squares over (x, y); nullopt with fewer than 2 points or all x equal. R² is 1 when every
// y is equal (the line explains them all).
std::optional<LinearFit> fit_linear(const std::vector<double>& x, const std::vector<double>& y);

// One line (or one bar colour): its points, the paper's points and its fit.
struct PlotSeries {
  std::string name;                 // the series parameter's value ("" when the plot has no series)
  std::vector<std::string> x_text;  // x as written (bars: the category)
  std::vector<double> x;            // x as a number (lines), NaN when not numeric
  std::vector<std::optional<double>> y;      // measured; nullopt for failed/missing points
  std::vector<std::string> y_text;           // the table's text for the point ("OOM", ...)
  std::vector<std::optional<double>> paper;  // the paper's value at that point
  std::optional<LinearFit> fit;              // over the measured points, when fit: linear
};

// What a plot draws, ready for a renderer.
struct PlotData {
  PlotSpec spec;
  std::string title, xlabel, ylabel, case_name;
  std::vector<std::string> categories;  // bars: x values in table order
  std::vector<PlotSeries> series;
};

// Builds the plot's table (a pivot table unpivoted, so every point is one row) and takes x, y,
// series and the paper's values from it. Throws InputError when the plot's table does not exist.
PlotData plot_data(const CaseSpec& c, const PlotSpec& p, const std::vector<RunRecord>& runs);

// A gnuplot script that draws `d` to <basename>.svg (svg terminal) and <basename>.png (pngcairo),
// data inline, so the script alone reproduces the figure.
std::string gnuplot_script(const PlotData& d, const std::string& basename);
// A gnuplot `body` (settings and a plot command) drawn to <basename>.svg, then to <basename>.png.
std::string gnuplot_to_files(const std::string& body, const std::string& basename);

}  // namespace aerun
