#include <algorithm>

#include "aerun/judge/run_status.hpp"
#include "aerun/run/forget.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/log_time.hpp"

namespace aerun {

std::optional<double> parse_date(const std::string& text) {
  std::string t = text;
  std::replace(t.begin(), t.end(), 'T', ' ');
  for (const char* f : {"%Y-%m-%d", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S%f"})
    if (auto v = parse_log_time(t, f)) return v;
  return std::nullopt;
}

std::vector<RunRecord> select_runs_to_forget(const Store& store, const ForgetSelection& s,
                                             std::vector<RunRecord>* busy) {
  if (s.case_name.empty() && s.only.empty() && s.statuses.empty() && !s.before && s.where.empty())
    throw InputError(SourceLoc{}, "--case",
                     "say which runs to forget: --case, --status, --only, --where or --before");
  std::vector<RunRecord> runs = store.list(RunFilter::of_case(s.case_name));
  std::vector<std::string> names;
  for (const auto& r : runs)
    for (const auto& [n, v] : r.params)
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  const RunSelector only(s.only, names, s.where);  // throws for an unknown key
  std::vector<RunRecord> out;
  for (auto& r : runs) {
    if (!s.statuses.empty() &&
        std::find(s.statuses.begin(), s.statuses.end(), r.status) == s.statuses.end())
      continue;
    if (!only.keeps(r.params, r.repeat_index)) continue;
    if (s.before) {
      const auto when = r.launch_time ? r.launch_time : r.end_time;
      if (!when || *when >= *s.before) continue;
    }
    const bool live =
        (r.status == run_status::running && r.job_id.empty()) ||
        (!r.job_id.empty() && (r.status == run_status::pending || r.status == run_status::running));
    if (live) {
      if (busy) busy->push_back(std::move(r));
      continue;
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace aerun
