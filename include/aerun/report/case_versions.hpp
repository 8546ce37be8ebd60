// Which stored runs belong to a case as it is now: tables use those by default, so
// a changed fixed parameter or command never mixes its runs with the old ones in a row.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/record/planned_runs.hpp"
#include "aerun/record/run_record.hpp"

namespace aerun {

// Whether the run is of the current version of `spec` (the same case): its version is the
// case's and its parameters are a point of the case's current sweep (repeat included). Runs
// without a recorded version (ingested logs, runs stored before versions were recorded) count as
// current.
class CurrentVersion {
 public:
  explicit CurrentVersion(const CaseSpec& spec);
  ~CurrentVersion();
  bool holds(const RunRecord& r) const;

 private:
  CurrentVersion(const CaseSpec& spec, bool on_system);
  // The case as it is on each system it pins values for (by the system a run stores: "" for
  // `local`), read from its file; a run on one of them is judged by it.
  std::map<std::string, std::unique_ptr<CurrentVersion>> on_system_;
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

// Which runs are of their case's current version, each case judged by its case file as it is
// now (a case whose file is gone or no longer loads: all its runs count as current).
class CurrentVersions {
 public:
  CurrentVersions();
  ~CurrentVersions();
  // Judges `spec`'s runs by `spec` rather than by the file the runs recorded.
  void add(const CaseSpec& spec);
  bool holds(const RunRecord& r);

 private:
  std::map<std::string, std::unique_ptr<CurrentVersion>> by_case_;  // null: cannot tell
};

// What the cases of a table plan now: `spec`'s current expansion, and that of each case in
// `others` (a table's runs_from) whose case file, as recorded by one of `runs`, still loads.
// A sweep of more than a million points is left out (its rows are shown as the runs give them).
std::vector<PlannedRuns> planned_runs(const CaseSpec& spec, const std::vector<std::string>& others,
                                      const std::vector<RunRecord>& runs);

}  // namespace aerun
