// The runs a table is built from, streamed out of the store into its builder (in parts, by
// threads).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/report/table.hpp"
#include "aerun/store/store.hpp"
#include "cli/run_selection.hpp"

namespace aerun::cli {

// Reads every run of some cases into a TableBuilder: each run's latest successful attempt, of
// its case's current version (unless all_versions), kept by the selection. A large case is cut by
// run id into parts that threads read at once, each through its own connection to the store and
// into its own builder, merged in order afterwards: the table is the same whatever the cut
// (tests/integration/table_threads_test.cpp).
class TableStream {
 public:
  struct Options {
    std::string db_path;               // where parts open their own connections
    std::vector<std::string> columns;  // RunFilter::columns: the run times the table shows
    std::optional<std::vector<std::string>> metrics;  // RunFilter::metric_names
    bool all_versions = false;
    SelectionArgs select;
    std::vector<std::string> known;  // the parameter names --only and --where may name
    int threads = 0;                 // 0: one per CPU (up to 8) for kThreadedFrom runs or more
  };
  // A case with this many runs or more is read by several threads unless Options::threads says.
  static constexpr long long kThreadedFrom = 50'000;

  TableStream(const CaseSpec& spec, Options o, std::function<std::unique_ptr<TableBuilder>()> make);

  // Adds case_name's runs (`stored` of them, as counted by Store::outline) to b, through store
  // (the first part) and connections of its own (the others); `read` (called on this thread)
  // hears how many runs were read so far.
  void read_case(const Store& store, const std::string& case_name, long long stored,
                 TableBuilder& b, const std::function<void(long long)>& read);

  long long runs_read() const { return read_; }
  size_t older() const { return older_; }  // runs of earlier case versions left out

 private:
  struct Part;
  void read_part(const Store& s, const RunFilter& f, TableBuilder& b, Part& part,
                 const std::function<void(long long)>* read);

  const CaseSpec& spec_;
  Options o_;
  std::function<std::unique_ptr<TableBuilder>()> make_;
  long long read_ = 0;
  size_t older_ = 0;
  std::atomic<long long> total_{0};  // of the case being read, by every thread (in steps of 1024)
};

}  // namespace aerun::cli
