#include <fmt/format.h>

#include "aerun/report/table.hpp"

namespace aerun {

std::string runs_count_text(const TableCell& c) {
  return short_of_plan(c) ? fmt::format("n={}/{}", c.n, c.planned) : fmt::format("n={}", c.n);
}

}  // namespace aerun
