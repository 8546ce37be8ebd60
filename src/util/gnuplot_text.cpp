#include "aerun/util/gnuplot_text.hpp"

#include "aerun/util/shell_quote.hpp"
#include "aerun/util/shown_text.hpp"

namespace aerun {

std::string gnuplot_string(std::string_view s) {
  const std::string text = printable(shown_text(s, kShownLabelBytes));
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

std::string gnuplot_comment(std::string_view s) {
  return printable(s);
}

}  // namespace aerun
