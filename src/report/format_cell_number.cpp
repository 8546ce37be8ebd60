#include <fmt/format.h>

#include <cmath>

#include "aerun/report/table.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

std::string format_cell_number(double v, const std::string& spec) {
  if (spec.empty()) {
    // 4 significant digits, but 12345.6 prints as 12346 rather than 1.235e+04.
    if (std::isfinite(v) && std::fabs(v) >= 1e4 && std::fabs(v) < 1e15)
      return fmt::format("{:.0f}", v);
    return format_number(v);
  }
  try {
    return format_number(v, spec);
  } catch (const fmt::format_error& e) {
    throw InputError("format: '" + spec + "' is not a number format (" + e.what() +
                     "); use a fmt spec such as \".3f\" or \".4g\"");
  }
}

}  // namespace aerun
