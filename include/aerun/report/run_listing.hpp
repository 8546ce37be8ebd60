// `aerun runs`: the stored runs one per line, as Markdown (for people: the headline columns),
// CSV (every column, exact numbers) or JSON. The caller streams the runs through row(): memory
// stays flat however many runs the store holds. docs/store.md, "Listing runs".
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aerun/record/run_record.hpp"
#include "aerun/store/store.hpp"

namespace aerun {

struct RunListingOptions {
  std::string format = "md";         // md | csv | json
  std::vector<std::string> columns;  // these, in this order (md and csv)
  bool all_columns = false;          // md: every column
  bool all_versions = false;         // md: a version column, "(old)" for earlier versions
};

class RunListing {
 public:
  // The columns come from the outline of the runs to list (their parameters and metrics, their
  // cases' headline metrics). Throws InputError naming --columns for an unknown column.
  RunListing(const Store::Outline& outline, RunListingOptions opts);
  RunListing(const RunListing&) = delete;  // its columns point into it
  RunListing& operator=(const RunListing&) = delete;

  // The columns of runs it shows besides those every read of the store has (RunFilter::columns).
  static std::vector<std::string> store_columns() {
    return {"key",       "reason", "case_digest",  "job_id", "log_path",
            "startup_s", "wall_s", "queue_wait_s", "system"};
  }

  std::string header() const;
  // One run's line (`current`: of its case's current version), appended to out.
  void row(const RunRecord& r, bool current, std::string& out);
  // After the last row: the count and what the default leaves out (md), the closing bracket
  // (json).
  std::string footer() const;

 private:
  struct Column {
    std::string name;
    std::function<std::string()> cell;  // of the current run
  };
  const Column* named(const std::string& n) const;
  bool named_shown(const std::string& n) const;
  std::string json_row(const RunRecord& r) const;
  std::string num(const std::optional<double>& v) const;

  RunListingOptions opts_;
  bool md_;
  bool no_systems_ = true;  // no listed run ran on a named system
  const RunRecord* run_ = nullptr;
  bool now_ = true;
  size_t listed_ = 0;
  std::vector<Column> all_;
  std::vector<const Column*> shown_;
};

// The metrics `aerun runs` shows by default, of those the runs have: per case (its file as it is
// now), its own metrics, those its tables show and its presets' headline ones.
std::vector<std::string> headline_metrics(const Store::Outline& o);

}  // namespace aerun
