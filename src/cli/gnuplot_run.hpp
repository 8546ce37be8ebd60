// Running gnuplot for `aerun plot` and `aerun history`.
#pragma once

#include <string>

namespace aerun::cli {

// gnuplot's path in PATH, or "" when there is none.
std::string find_gnuplot();
// Runs gnuplot on the script in `dir`; throws SystemError with gnuplot's output when it fails.
void run_gnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script);
// Draws a figure: `script` (from gnuplot_script / history_gnuplot_script for `base`) run by gnuplot
// in a folder of its own inside `dir`; base.svg and base.png are checked whole (the SVG's end
// tag, the PNG's IEND chunk: a full disk truncates them and gnuplot still exits 0), then
// base.{gp,svg,png} are renamed into `dir` together. On any failure the figures already in
// `dir` stay as they were and SystemError says why (issue 28).
void draw_figure(const std::string& gnuplot, const std::string& dir, const std::string& base,
                 const std::string& script);

}  // namespace aerun::cli
