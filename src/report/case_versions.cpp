#include "aerun/report/case_versions.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "aerun/case/case_loader.hpp"
#include "aerun/case/system_catalog.hpp"
#include "aerun/sweep/sweep.hpp"

namespace aerun {

namespace {

// Bigger sweeps are checked by version only (the set of points would cost too much memory).
constexpr size_t kMaxPointsChecked = 1000000;

std::string canonical(const ParamList& params) {
  std::vector<std::string> parts;
  parts.reserve(params.size());
  for (const auto& [name, value] : params) parts.push_back(name + "=" + value.text());
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += p + '\x1f';
  return out;
}

// At most kMaxPointsChecked points, without iterating a sweep ten times that size before
// exclusion.
bool small_enough(const Sweep& sweep) {
  const size_t most = sweep.max_points();
  if (most <= kMaxPointsChecked) return true;
  return most <= 10 * kMaxPointsChecked && sweep.count() <= kMaxPointsChecked;
}

std::optional<PlannedRuns> plan_of(const CaseSpec& spec) {
  const Sweep sweep(spec);
  if (!small_enough(sweep)) return std::nullopt;
  PlannedRuns plan;
  plan.case_name = spec.name;
  plan.repeat = std::max(1, spec.repeat);
  sweep.for_each([&](const ParamList& p) {
    plan.points.push_back(p);
    return true;
  });
  return plan;
}

}  // namespace

std::vector<PlannedRuns> planned_runs(const CaseSpec& spec, const std::vector<std::string>& others,
                                      const std::vector<RunRecord>& runs) {
  std::vector<PlannedRuns> out;
  if (auto p = plan_of(spec)) out.push_back(std::move(*p));
  for (const std::string& name : others) {
    if (name == spec.name) continue;
    const auto r = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& x) {
      return x.case_name == name && !x.case_file.empty();
    });
    std::error_code ec;
    if (r == runs.end() || !std::filesystem::exists(r->case_file, ec)) continue;
    try {
      const CaseSpec other = load_case(r->case_file);
      if (other.name != name) continue;
      if (auto p = plan_of(other)) out.push_back(std::move(*p));
    } catch (const std::exception&) {
      // A case file that no longer loads plans nothing we can know.
    }
  }
  return out;
}

CurrentVersion::CurrentVersion(const CaseSpec& spec) : CurrentVersion(spec, false) {}

CurrentVersion::~CurrentVersion() = default;

CurrentVersion::CurrentVersion(const CaseSpec& spec, bool on_system)
    : version_(spec.version), repeat_(spec.repeat) {
  if (!on_system)
    for (const std::string& system : spec.pinned_systems) {
      CaseOverrides o;
      o.system = system;
      o.checking_systems = true;
      try {
        const CaseSpec there = load_case(spec.file, o);
        on_system_.emplace(stored_system_name(system),
                           std::unique_ptr<CurrentVersion>(new CurrentVersion(there, true)));
      } catch (const std::exception&) {
        // The file changed since: runs on that system are judged by the case as read.
      }
    }
  const Sweep sweep(spec);
  check_points_ = small_enough(sweep);
  if (!check_points_) return;
  sweep.for_each([&](const ParamList& p) {
    points_.push_back(canonical(p));
    return true;
  });
  std::sort(points_.begin(), points_.end());
}

bool CurrentVersion::holds(const RunRecord& r) const {
  if (const auto it = on_system_.find(r.system); it != on_system_.end())
    return it->second->holds(r);
  if (r.case_version.empty()) return true;
  if (r.case_version != version_ || r.repeat_index >= repeat_) return false;
  return !check_points_ || std::binary_search(points_.begin(), points_.end(), canonical(r.params));
}

CurrentVersions::CurrentVersions() = default;
CurrentVersions::~CurrentVersions() = default;

void CurrentVersions::add(const CaseSpec& spec) {
  by_case_[spec.name] = std::make_unique<CurrentVersion>(spec);
}

bool CurrentVersions::holds(const RunRecord& r) {
  auto it = by_case_.find(r.case_name);
  if (it == by_case_.end()) {
    std::unique_ptr<CurrentVersion> cv;
    std::error_code ec;
    if (!r.case_file.empty() && std::filesystem::exists(r.case_file, ec)) {
      try {
        const CaseSpec spec = load_case(r.case_file);
        if (spec.name == r.case_name) cv = std::make_unique<CurrentVersion>(spec);
      } catch (const std::exception&) {
        // A case file that no longer loads says nothing about versions: keep its runs.
      }
    }
    it = by_case_.emplace(r.case_name, std::move(cv)).first;
  }
  return !it->second || it->second->holds(r);
}

std::vector<RunRecord> current_runs(std::vector<RunRecord> runs, const CaseSpec& spec,
                                    size_t* excluded) {
  CurrentVersions versions;
  versions.add(spec);
  std::vector<RunRecord> out;
  size_t left = 0;
  for (auto& r : runs) {
    if (versions.holds(r))
      out.push_back(std::move(r));
    else
      ++left;
  }
  if (excluded) *excluded = left;
  return out;
}

}  // namespace aerun
