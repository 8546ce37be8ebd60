#include "aerun/util/gnuplot_text.hpp"

#include "aerun/util/shell_quote.hpp"
#include "aerun/util/shown_text.hpp"

namespace aerun {

namespace {

// text (one line already) as a single-quoted gnuplot constant.
std::string quoted(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  for (const char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

}  // namespace

std::string gnuplot_string(std::string_view s) {
  return quoted(printable(shown_text(s, kShownLabelBytes)));
}

std::string gnuplot_tic_label(std::string_view s) {
  std::string doubled;  // after the cut to its shown length, so no `%%` is cut in two
  for (const char c : printable(shown_text(s, kShownLabelBytes))) {
    doubled += c;
    if (c == '%') doubled += '%';
  }
  return quoted(doubled);
}

std::string gnuplot_comment(std::string_view s) {
  return printable(s);
}

}  // namespace aerun
