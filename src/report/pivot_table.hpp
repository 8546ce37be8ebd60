// A long table turned wide: one column group per value of its last row parameter.
#pragma once

#include <vector>

#include "aerun/report/table.hpp"
#include "aerun/util/value.hpp"

namespace aerun {

// Turns a long table (its last row parameter being the pivot) into one row per other key and one
// column group per pivot value (natural order). Missing combinations read "".
Table pivot_table(Table long_table, const std::vector<std::vector<Value>>& keys);

}  // namespace aerun
