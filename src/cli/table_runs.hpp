// The stored runs a table draws on: its case's and those of the cases in its runs_from, each its
// latest successful attempt of the run's case version when there is one, else its latest.
#pragma once

#include <algorithm>
#include <iterator>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/store/store.hpp"

namespace aerun::cli {

inline std::vector<RunRecord> table_runs(const Store& store, const CaseSpec& c,
                                         const std::vector<std::string>& runs_from) {
  RunFilter f;
  f.case_name = c.name;
  std::vector<RunRecord> runs = store.list(f);
  for (const auto& other : runs_from) {
    if (other == c.name) continue;
    f.case_name = other;
    auto more = store.list(f);
    runs.insert(runs.end(), std::make_move_iterator(more.begin()),
                std::make_move_iterator(more.end()));
  }
  store.prefer_latest_ok(
      runs);  // a run that failed lately shows its latest success (docs/tables.md)
  return runs;
}

// Every case name the plots' tables read.
inline std::vector<std::string> tables_runs_from(const CaseSpec& c) {
  std::vector<std::string> names;
  for (const auto& t : c.tables)
    for (const auto& n : t.runs_from)
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  return names;
}

}  // namespace aerun::cli
