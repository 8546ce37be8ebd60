// Expansion of a case's parameters into the concrete points of its sweep, streamed one at a time.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/util/value.hpp"

namespace aerun {

// Expands a case's parameters into run points, streaming: points are produced one by one into a
// reused ParamList, never held all in memory.
//
// Order of points and of the parameters inside each point:
//  - names(): `params` in file order, then the members of each zip group, then derived parameters.
//  - The base grid crosses its axes (each list param is one axis, each zip group one axis whose
//    i-th step sets every member to its i-th value) with the FIRST axis outermost (slowest), like
//    Python's itertools.product. Fixed params keep their single value.
//  - Each include is then expanded as its own grid: its own list params are the outermost axes (in
//    the include's order), followed by the base axes it does not override (in base order); a zip
//    group with some members overridden still advances its other members together. Parameters the
//    include does not name keep their base values.
//  - A point whose input values (all but derived ones, compared as text) equal an earlier point's
//    is dropped. This is exact and needs no memory per point: each grid indexes its axis values, so
//    "seen before" is answered by "is it a point of an earlier grid, or an earlier step of this
//    one" with one hash lookup per axis.
//  - derive formulas are evaluated in order (later ones may use earlier ones), then a point is
//    dropped when any exclude matches it (all its match entries, and its condition if it has one).
class Sweep {
 public:
  // Validates and compiles the sweep. Throws InputError naming the file:line:col and the key
  // (e.g. "derive.gbs", "exclude[1]", "include[0].layers", "zip") on a bad formula or condition,
  // an unknown variable or parameter, zip members of unequal lengths, an empty list, or a name
  // defined twice. Indices in keys are 0-based.
  explicit Sweep(const CaseSpec& spec);
  ~Sweep();
  Sweep(Sweep&&) noexcept;
  Sweep& operator=(Sweep&&) noexcept;

  // Calls fn for every point, in order, derived parameters included. fn returns false to stop
  // early. The ParamList reference is only valid during the call. A formula failing on a point
  // (e.g. a type mismatch on a value not seen at validation) throws InputError.
  void for_each(const std::function<bool(const ParamList&)>& fn) const;
  // Whether a point whose parameter `name` has value v may be wanted (false: every such point
  // is skipped before it is made — `--only`). Derived parameters are not asked.
  using ValueFilter = std::function<bool(const std::string& name, const Value& v)>;
  // Same, for the points the filter may want only: the values it rules out are skipped on their
  // axis, so a selection of a few points of a huge sweep costs those few.
  void for_each(const std::function<bool(const ParamList&)>& fn, const ValueFilter& filter) const;
  // Number of points after deduplication and exclusion (iterates; nothing is materialised).
  size_t count() const;
  // Points before deduplication and exclusion: the sizes of the grids, multiplied out (no
  // iteration; SIZE_MAX when that overflows). count() <= max_points().
  size_t max_points() const;
  // Parameter names of every point, in the order described above.
  const std::vector<std::string>& names() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aerun
