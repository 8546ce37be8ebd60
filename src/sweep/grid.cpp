#include "sweep/grid.hpp"

#include <cstdint>

namespace aerun::sweep_detail {

Grid::Grid(std::vector<std::pair<size_t, Value>> fixed, std::vector<Axis> axes)
    : fixed_(std::move(fixed)), axes_(std::move(axes)) {
  index_.resize(axes_.size());
  for (size_t a = 0; a < axes_.size(); ++a) {
    const Axis& ax = axes_[a];
    AxisIndex& ix = index_[a];
    const size_t n = ax.values[0].size();
    ix.first.assign(n, 1);
    for (size_t step = 0; step < n; ++step) {
      auto& bucket = ix.steps_by_first[ax.values[0][step].text()];
      for (uint32_t earlier : bucket) {
        bool same = true;
        for (size_t m = 1; m < ax.values.size() && same; ++m)
          same = ax.values[m][earlier] == ax.values[m][step];
        if (same) {
          ix.first[step] = 0;
          repeated_ = true;
          break;
        }
      }
      bucket.push_back(static_cast<uint32_t>(step));
    }
  }
}

bool Grid::is_first_occurrence(const std::vector<size_t>& steps) const {
  for (size_t a = 0; a < steps.size(); ++a)
    if (!index_[a].first[steps[a]]) return false;
  return true;
}

bool Grid::axis_step_matches(const Axis& a, size_t step, const ParamList& point) const {
  for (size_t m = 1; m < a.slots.size(); ++m)
    if (a.values[m][step] != point[a.slots[m]].second) return false;
  return true;
}

bool Grid::contains(const ParamList& point) const {
  for (const auto& [slot, value] : fixed_)
    if (point[slot].second != value) return false;
  for (size_t a = 0; a < axes_.size(); ++a) {
    const Axis& ax = axes_[a];
    const auto it = index_[a].steps_by_first.find(point[ax.slots[0]].second.text());
    if (it == index_[a].steps_by_first.end()) return false;
    bool found = false;
    for (uint32_t step : it->second)
      if ((found = axis_step_matches(ax, step, point))) break;
    if (!found) return false;
  }
  return true;
}

size_t Grid::size() const {
  size_t n = 1;
  for (const Axis& a : axes_) {
    const size_t len = a.values.empty() ? 1 : a.values[0].size();
    if (len != 0 && n > SIZE_MAX / len) return SIZE_MAX;
    n *= len;
  }
  return n;
}

}  // namespace aerun::sweep_detail
