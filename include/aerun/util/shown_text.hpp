// How a stored string is shown to a person: whole while it is short, else its start and its size.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace aerun {

// Bytes of a string shown on a page, in a table cell or a Markdown document.
inline constexpr size_t kShownBytes = 4096;
// Bytes of a string shown as a figure's title, legend entry or tic label.
inline constexpr size_t kShownLabelBytes = 256;

// s whole when it has at most max_bytes bytes; else its first bytes (never half a UTF-8
// character) then "… (N bytes)". The display sinks (Markdown and text tables, HTML pages, LaTeX,
// gnuplot labels) show values through it, so a 100 MB value a merged store brought costs a
// report kilobytes, not minutes and gigabytes (issue 28). The store, CSV, JSON and JUnit XML keep
// the exact value: programs read those.
std::string shown_text(std::string_view s, size_t max_bytes = kShownBytes);

}  // namespace aerun
