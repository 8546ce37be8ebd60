// The one way a string reaches a gnuplot script: as a single-quoted string constant on one line.
#pragma once

#include <string>
#include <string_view>

namespace aerun {

// s as a gnuplot string constant: single quotes (gnuplot substitutes neither backquotes nor @macros
// inside them), a quote written as '', and every control character (newline, carriage return,
// NUL, escape, ...) and DEL written as the text \xNN, so the constant never ends its line and no
// stored name, label or value becomes a gnuplot command (issue 28). A label longer than
// kShownLabelBytes is shown by its start and size (shown_text).
std::string gnuplot_string(std::string_view s);

// s as the label of a tic given by hand (`set xtics ("label" 0, ...)`): gnuplot reads such a label
// as a format for the tic's value (its documentation's `set xtics ("%3.0f%%" 20)`), so a `%` in a
// category or a session label is written `%%` (issue 40: `50%` made gnuplot fail), then as
// gnuplot_string writes it.
std::string gnuplot_tic_label(std::string_view s);

// s for a `# ...` comment line of a gnuplot script: control characters as \xNN (one line).
std::string gnuplot_comment(std::string_view s);

}  // namespace aerun
