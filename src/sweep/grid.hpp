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
  // as visit returns false. allowed: for each axis, the steps to take (ascending; the others are
  // skipped without being visited); null: all.
  template <class Visit>
  bool for_each(ParamList& point, std::vector<char>& dirty, Visit&& visit,
                const std::vector<std::vector<size_t>>* allowed = nullptr) const;
  const std::vector<std::pair<size_t, Value>>& fixed() const { return fixed_; }
  const std::vector<Axis>& axes() const { return axes_; }

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
bool Grid::for_each(ParamList& point, std::vector<char>& dirty, Visit&& visit,
                    const std::vector<std::vector<size_t>>* allowed) const {
  for (const auto& [slot, value] : fixed_) {
    point[slot].second = value;
    dirty[slot] = 1;
  }
  const size_t n = axes_.size();
  auto length = [&](size_t a) {
    return allowed ? (*allowed)[a].size() : axes_[a].values[0].size();
  };
  auto step_at = [&](size_t a, size_t i) { return allowed ? (*allowed)[a][i] : i; };
  for (size_t a = 0; a < n; ++a)
    if (length(a) == 0) return true;  // every value of an axis filtered out: no point
  std::vector<size_t> pos(n, 0), steps(n, 0);
  for (size_t a = 0; a < n; ++a) set(point, dirty, a, steps[a] = step_at(a, 0));
  while (true) {
    if (!visit(static_cast<const std::vector<size_t>&>(steps))) return false;
    // Advance the odometer: the last axis fastest, carrying into the ones before it.
    size_t a = n;
    while (a > 0) {
      --a;
      if (++pos[a] < length(a)) {
        set(point, dirty, a, steps[a] = step_at(a, pos[a]));
        break;
      }
      pos[a] = 0;
      set(point, dirty, a, steps[a] = step_at(a, 0));
      if (a == 0) return true;
    }
    if (n == 0) return true;
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
