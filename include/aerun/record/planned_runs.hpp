// The runs a case plans now (its current expansion): a table's rows without a stored run read
// "missing", and a cell built from fewer runs than planned says so (n=2/3).
#pragma once

#include <string>
#include <vector>

#include "aerun/util/value.hpp"

namespace aerun {

struct PlannedRuns {
  std::string case_name;
  std::vector<ParamList> points;  // the sweep's points
  int repeat = 1;                 // runs per point
};

}  // namespace aerun
