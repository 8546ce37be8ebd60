#include "aerun/report/table.hpp"

namespace aerun {

std::string header_text(const Table& t, size_t column) {
  const std::string& label = column < t.columns.size() ? t.columns[column] : std::string();
  if (column >= t.units.size() || t.units[column].empty()) return label;
  return label + " (" + t.units[column] + ")";
}

}  // namespace aerun
