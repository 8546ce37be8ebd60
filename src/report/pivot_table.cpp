// See pivot_table.hpp.
#include "report/pivot_table.hpp"

#include <algorithm>

#include "report/row_index.hpp"

namespace aerun {

Table pivot_table(Table long_table, const std::vector<std::vector<Value>>& keys) {
  Table wide = long_table;
  wide.rows.clear();
  wide.columns.clear();
  wide.units.clear();
  wide.row_params.pop_back();
  std::vector<Value> pivots;
  for (const auto& k : keys)
    if (std::none_of(pivots.begin(), pivots.end(),
                     [&](const Value& v) { return values_equal(v, k.back()); }))
      pivots.push_back(k.back());
  std::stable_sort(pivots.begin(), pivots.end());
  const size_t ncols = long_table.columns.size();
  for (const auto& pv : pivots)
    for (size_t j = 0; j < ncols; ++j) {
      wide.columns.push_back(ncols == 1 ? pv.text() : pv.text() + " " + long_table.columns[j]);
      wide.units.push_back(long_table.units[j]);
    }
  RowIndex wide_keys;
  for (size_t i = 0; i < long_table.rows.size(); ++i) {
    const std::vector<Value> key(keys[i].begin(), keys[i].end() - 1);
    size_t w = wide_keys.find(key);
    if (w == RowIndex::npos) {
      w = wide.rows.size();
      wide_keys.add(key, w);
      Table::Row row;
      for (const auto& v : key) row.key.push_back(v.text());
      TableCell blank;
      row.cells.assign(pivots.size() * ncols, blank);
      wide.rows.push_back(std::move(row));
    }
    const size_t p = static_cast<size_t>(
        std::find_if(pivots.begin(), pivots.end(),
                     [&](const Value& v) { return values_equal(v, keys[i].back()); }) -
        pivots.begin());
    for (size_t j = 0; j < ncols; ++j)
      wide.rows[w].cells[p * ncols + j] = long_table.rows[i].cells[j];
  }
  return wide;
}

}  // namespace aerun
