// One cartesian product of a sweep (the base grid, or one include), iterated in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "aerun/util/value.hpp"

namespace aerun::sweep_detail {

// One axis of a grid: a swept list, or a zip group whose members advance together.
struct Axis {
  std::vector<size_t> slots;               // positions of the members in the point
  std::vector<std::vector<Value>> values;  // values[member][step], all of the same length
};

// A cartesian product of axes (first axis slowest) over a point whose other slots are fixed.
// Besides iterating, it answers "is this point one of mine" and "is this step the first with
// these values" from an index of its axis values, so duplicates are found without remembering
// the points already produced.
class Grid {
 public:
  Grid(std::vector<std::pair<size_t, Value>> fixed, std::vector<Axis> axes);

  // Sets every point of the grid into `point` in order, writing only the slots that change and
  // flagging them in `dirty`, and calls visit(steps) for each. Stops (returning false) as soon
  // as visit returns false.
  template <class Visit>
  bool for_each(ParamList& point, std::vector<char>& dirty, Visit&& visit) const;

  // Whether `steps` is the first step of this grid giving its values (axes may repeat values).
  bool is_first_occurrence(const std::vector<size_t>& steps) const;
  // Whether the point's values in this grid's slots are those of one of this grid's points.
  bool contains(const ParamList& point) const;
  bool has_repeated_values() const { return repeated_; }
  // The number of points (the product of the axis lengths), saturating at SIZE_MAX.
  size_t size() const;

 private:
  // For one axis: the steps of each first-member value, and whether each step is new.
  struct AxisIndex {
    std::unordered_map<std::string, std::vector<uint32_t>> steps_by_first;
    std::vector<char> first;
  };
  bool axis_step_matches(const Axis& a, size_t step, const ParamList& point) const;
  void set(ParamList& point, std::vector<char>& dirty, size_t axis, size_t step) const;

  std::vector<std::pair<size_t, Value>> fixed_;
  std::vector<Axis> axes_;
  std::vector<AxisIndex> index_;
  bool repeated_ = false;
};

template <class Visit>
bool Grid::for_each(ParamList& point, std::vector<char>& dirty, Visit&& visit) const {
  for (const auto& [slot, value] : fixed_) {
    point[slot].second = value;
    dirty[slot] = 1;
  }
  std::vector<size_t> steps(axes_.size(), 0);
  for (size_t a = 0; a < axes_.size(); ++a) set(point, dirty, a, 0);
  while (true) {
    if (!visit(static_cast<const std::vector<size_t>&>(steps))) return false;
    // Advance the odometer: the last axis fastest, carrying into the ones before it.
    size_t a = axes_.size();
    while (a > 0) {
      --a;
      if (++steps[a] < axes_[a].values[0].size()) {
        set(point, dirty, a, steps[a]);
        break;
      }
      steps[a] = 0;
      set(point, dirty, a, 0);
      if (a == 0) return true;
    }
    if (axes_.empty()) return true;
  }
}

inline void Grid::set(ParamList& point, std::vector<char>& dirty, size_t axis, size_t step) const {
  const Axis& ax = axes_[axis];
  for (size_t m = 0; m < ax.slots.size(); ++m) {
    point[ax.slots[m]].second = ax.values[m][step];
    dirty[ax.slots[m]] = 1;
  }
}

}  // namespace aerun::sweep_detail
