// `aerun forget`: which stored runs a selection names, so they can be removed in one transaction.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/record/run_record.hpp"
#include "aerun/store/store.hpp"

namespace aerun {

struct ForgetSelection {
  std::string case_name;              // "" = every case
  std::vector<std::string> only;      // KEY=VALUE[,VALUE...], as `aerun case --only`
  std::vector<std::string> statuses;  // any of these ("" = every status)
  std::optional<double> before;       // launched (else ended) before this instant (epoch s)
  std::string where;                  // a condition, as `aerun case --where`
};

// The runs of the store the selection names. A run some live aerun is running is never
// selected (it is listed in *busy). Throws InputError for an --only key no selected run has, or
// a selection that names nothing at all (no case, status, --only, --where or --before).
std::vector<RunRecord> select_runs_to_forget(const Store& store, const ForgetSelection& s,
                                             std::vector<RunRecord>* busy);

// "2026-11-01", "2026-11-01T12:00", "2026-11-01 12:00:00" (UTC) -> epoch seconds.
std::optional<double> parse_date(const std::string& text);

}  // namespace aerun
