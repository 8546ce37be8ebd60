// Which stored runs belong to a case as it is now (issue 11): tables use those by default, so
// a changed fixed parameter or command never mixes its runs with the old ones in a row.
#pragma once

#include <string>
#include <vector>

#include "aerun/case_spec.hpp"
#include "aerun/run_record.hpp"

namespace aerun {

// Whether the run is of the current version of `spec` (the same case): its version is the
// case's and its parameters are a point of the case's current sweep (repeat included). Runs
// without a recorded version (ingested logs, runs stored before versions were recorded) count as
// current.
class CurrentVersion {
 public:
  explicit CurrentVersion(const CaseSpec& spec);
  bool holds(const RunRecord& r) const;

 private:
  std::string version_;
  int repeat_ = 1;
  bool check_points_ = true;
  std::vector<std::string> points_;  // sorted canonical parameter texts
};

// The runs of the current versions of their cases: `spec` for its own runs, and for the runs of
// other cases (a table's runs_from) their case files as they are now, when they can be read.
// *excluded counts the runs left out.
std::vector<RunRecord> current_runs(std::vector<RunRecord> runs, const CaseSpec& spec,
                                    size_t* excluded);

}  // namespace aerun
