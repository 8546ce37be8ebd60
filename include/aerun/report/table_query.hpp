// Which stored runs a table shows, one rule for `table`, `report`, `plot` and `history`: the runs
// of its case and of the cases in its runs_from — each run as it stands (its latest successful
// attempt, else its latest; docs/tables.md), or the attempts one session made — of their case's
// current version unless all versions are asked for, kept by a selection (--only, --where).
// Read whole (runs()) or streamed into a TableBuilder (stream()): a large case is cut by run id
// into parts that threads read at once, each through its own connection to the store and into
// its own builder, merged in order afterwards; the table is the same whatever the cut
// (tests/integration/table_threads_test.cpp).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/report/table.hpp"
#include "aerun/store/store.hpp"

namespace aerun {

class TableQuery {
 public:
  using Selection = std::function<bool(const RunRecord&)>;
  struct Options {
    std::vector<std::string> cases;  // the table's case first, then the others it reads
    long long session = 0;           // 0: every run as it stands; else this session's attempts
    bool all_versions = false;       // else only runs of their case's current version
    // Makes the selection (once per reading thread: a selection need not be thread-safe);
    // empty: every run.
    std::function<Selection()> make_selection;
    // Only runs on these systems ("" : on none named; docs/systems.md); nullopt: on any.
    std::optional<std::vector<std::string>> systems;
    // For stream(): where the parts open their own connections, the run columns and the
    // metrics the table shows (RunFilter::columns, metric_names), and how many threads read a
    // case (0: one per CPU, up to 8, from kThreadedFrom runs on).
    std::string db_path;
    std::vector<std::string> columns;
    std::optional<std::vector<std::string>> metrics;
    int threads = 0;
  };
  static constexpr long long kThreadedFrom = 50'000;

  // spec: the table's case (its own runs are judged by it, not by the file they recorded);
  // nullptr only with all_versions.
  TableQuery(const CaseSpec* spec, Options o);

  // Every run it shows, read whole, case after case.
  std::vector<RunRecord> runs(const Store& store);
  // Adds every run it shows to b: `stored` holds how many runs each case has (Store::outline),
  // make makes the builders of the other parts, `read` (called on this thread) hears how many
  // runs were read so far.
  void stream(const Store& store, TableBuilder& b, const std::map<std::string, long long>& stored,
              const std::function<std::unique_ptr<TableBuilder>()>& make,
              const std::function<void(long long)>& read);

  long long runs_read() const { return read_; }
  size_t older() const { return older_; }  // runs of earlier case versions left out

 private:
  struct Part;
  class Rule;
  RunFilter filter(const std::string& case_name) const;
  void read_part(const Store& s, const RunFilter& f, TableBuilder& b, Part& part,
                 const std::function<void(long long)>* read);
  void stream_case(const Store& store, const std::string& case_name, long long stored,
                   TableBuilder& b, const std::function<std::unique_ptr<TableBuilder>()>& make,
                   const std::function<void(long long)>& read);

  const CaseSpec* spec_;
  Options o_;
  bool system_dimension_ = false;  // a table of spec_ has `system` as a row or its pivot
  long long read_ = 0;
  size_t older_ = 0;
  std::atomic<long long> total_{0};  // of the case being read, by every thread (in steps of 1024)
};

}  // namespace aerun
