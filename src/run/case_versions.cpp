#include "aerun/case_versions.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include "aerun/case_loader.hpp"
#include "aerun/sweep.hpp"

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

}  // namespace

CurrentVersion::CurrentVersion(const CaseSpec& spec)
    : version_(spec.version), repeat_(spec.repeat) {
  const Sweep sweep(spec);
  check_points_ = sweep.count() <= kMaxPointsChecked;
  if (!check_points_) return;
  sweep.for_each([&](const ParamList& p) {
    points_.push_back(canonical(p));
    return true;
  });
  std::sort(points_.begin(), points_.end());
}

bool CurrentVersion::holds(const RunRecord& r) const {
  if (r.case_version.empty()) return true;
  if (r.case_version != version_ || r.repeat_index >= repeat_) return false;
  return !check_points_ || std::binary_search(points_.begin(), points_.end(), canonical(r.params));
}

std::vector<RunRecord> current_runs(std::vector<RunRecord> runs, const CaseSpec& spec,
                                    size_t* excluded) {
  std::map<std::string, std::unique_ptr<CurrentVersion>> by_case;  // null: cannot tell
  by_case[spec.name] = std::make_unique<CurrentVersion>(spec);
  std::vector<RunRecord> out;
  size_t left = 0;
  for (auto& r : runs) {
    auto it = by_case.find(r.case_name);
    if (it == by_case.end()) {
      std::unique_ptr<CurrentVersion> cv;
      std::error_code ec;
      if (!r.case_file.empty() && std::filesystem::exists(r.case_file, ec)) {
        try {
          cv = std::make_unique<CurrentVersion>(load_case(r.case_file));
        } catch (const std::exception&) {
          // A case file that no longer loads says nothing about versions: keep its runs.
        }
      }
      it = by_case.emplace(r.case_name, std::move(cv)).first;
    }
    if (!it->second || it->second->holds(r))
      out.push_back(std::move(r));
    else
      ++left;
  }
  if (excluded) *excluded = left;
  return out;
}

}  // namespace aerun
