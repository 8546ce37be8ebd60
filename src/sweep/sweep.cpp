#include "aerun/sweep/sweep.hpp"

#include <unordered_map>

#include "aerun/sweep/evaluator.hpp"
#include "aerun/util/error.hpp"
#include "sweep/grid.hpp"

namespace aerun {

using sweep_detail::Axis;
using sweep_detail::Evaluator;
using sweep_detail::Formula;
using sweep_detail::Grid;
using sweep_detail::VarKind;

namespace {

std::string join(const std::vector<std::string>& names, size_t n) {
  std::string s;
  for (size_t i = 0; i < n && i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s;
}

void check_values(const ParamSpec& p, const std::string& key) {
  if (p.values.empty())
    throw InputError(p.loc, key, "has no values (an empty list sweeps nothing)");
  if (!p.is_list && p.values.size() != 1)
    throw InputError(p.loc, key, "a fixed parameter has exactly one value");
}

}  // namespace

// One exclude entry, compiled: parameter slots with their accepted values, and a condition.
struct ExcludeRule {
  struct Member {
    size_t slot;
    std::vector<Value> values;
  };
  std::vector<Member> members;
  int condition = -1;  // index into the evaluator's conditions, -1 = none
};

struct Sweep::Impl {
  std::vector<std::string> names;
  std::vector<VarKind> kinds;  // of the input (non-derived) slots
  ParamList first_point;       // the first base point, before derive
  std::vector<Grid> grids;     // the base grid, then one per include
  bool dedupe = false;
  std::vector<ExcludeRule> excludes;
  std::vector<Formula> derive;
  std::vector<Formula> conditions;

  bool matches(const ExcludeRule::Member& m, const ParamList& point) const {
    const Value& v = point[m.slot].second;
    for (const Value& want : m.values) {
      if (want == v) return true;
      if (want.is_number() && v.is_number() && *want.number() == *v.number()) return true;
    }
    return false;
  }
};

Sweep::Sweep(const CaseSpec& spec) : impl_(std::make_unique<Impl>()) {
  Impl& im = *impl_;
  std::unordered_map<std::string, size_t> slot_of;
  auto add_name = [&](const std::string& name, const SourceLoc& loc, const std::string& key) {
    if (!slot_of.emplace(name, im.names.size()).second)
      throw InputError(loc, key, "parameter \"" + name + "\" is defined twice");
    im.names.push_back(name);
  };

  // The base grid: list params and zip groups are axes, in file order; the rest is fixed.
  std::vector<std::pair<size_t, Value>> fixed;
  std::vector<Axis> axes;
  std::vector<int> axis_of_param;  // per params entry: its axis, or -1 when fixed
  for (const ParamSpec& p : spec.params) {
    check_values(p, p.name);
    add_name(p.name, p.loc, p.name);
    if (p.is_list) {
      axis_of_param.push_back(static_cast<int>(axes.size()));
      axes.push_back({{slot_of[p.name]}, {p.values}});
    } else {
      axis_of_param.push_back(-1);
      fixed.emplace_back(slot_of[p.name], p.values[0]);
    }
  }
  for (const ZipGroup& z : spec.zips) {
    if (z.members.empty()) throw InputError(z.loc, "zip", "a zip group needs members");
    Axis ax;
    std::string lengths;
    bool equal = true;
    for (const ParamSpec& m : z.members) {
      check_values(m, m.name);
      add_name(m.name, m.loc, m.name);
      ax.slots.push_back(slot_of[m.name]);
      ax.values.push_back(m.values);
      lengths += (lengths.empty() ? "" : ", ") + m.name + " has " + std::to_string(m.values.size());
      equal = equal && m.values.size() == z.members[0].values.size();
    }
    if (!equal)
      throw InputError(z.loc, "zip", "zipped lists must have the same length (" + lengths + ")");
    axes.push_back(std::move(ax));
  }
  const size_t n_inputs = im.names.size();
  im.grids.emplace_back(fixed, axes);
  im.dedupe = im.grids[0].has_repeated_values() || !spec.includes.empty();

  // Includes: their own lists first (their order), then the base axes they leave alone.
  for (size_t i = 0; i < spec.includes.size(); ++i) {
    const IncludeSpec& inc = spec.includes[i];
    const std::string base_key = "include[" + std::to_string(i) + "]";
    std::unordered_map<size_t, const ParamSpec*> overridden;
    std::vector<std::pair<size_t, Value>> inc_fixed;
    std::vector<Axis> inc_axes;
    for (const ParamSpec& p : inc.params) {
      const std::string key = base_key + "." + p.name;
      const auto it = slot_of.find(p.name);
      if (it == slot_of.end())
        throw InputError(p.loc, key,
                         "unknown parameter \"" + p.name +
                             "\": an include can only set parameters of params or zip (known: " +
                             join(im.names, n_inputs) + ")");
      check_values(p, key);
      if (!overridden.emplace(it->second, &p).second)
        throw InputError(p.loc, key, "parameter \"" + p.name + "\" is set twice");
      if (p.is_list)
        inc_axes.push_back({{it->second}, {p.values}});
      else
        inc_fixed.emplace_back(it->second, p.values[0]);
    }
    for (const auto& [slot, value] : fixed)
      if (!overridden.count(slot)) inc_fixed.emplace_back(slot, value);
    for (const Axis& ax : axes) {
      Axis kept;
      for (size_t m = 0; m < ax.slots.size(); ++m)
        if (!overridden.count(ax.slots[m])) {
          kept.slots.push_back(ax.slots[m]);
          kept.values.push_back(ax.values[m]);
        }
      if (!kept.slots.empty()) inc_axes.push_back(std::move(kept));
    }
    im.grids.emplace_back(std::move(inc_fixed), std::move(inc_axes));
  }

  // How formulas see each input: a number or boolean only when every value it takes is one.
  im.kinds.assign(n_inputs, VarKind::Bool);
  auto see = [&](size_t slot, const Value& v) {
    VarKind& k = im.kinds[slot];
    if (v.kind() == Value::Kind::String)
      k = VarKind::String;
    else if (v.kind() != Value::Kind::Bool && k == VarKind::Bool)
      k = VarKind::Number;
  };
  auto see_spec = [&](const ParamSpec& p) {
    for (const Value& v : p.values) see(slot_of[p.name], v);
  };
  for (const ParamSpec& p : spec.params) see_spec(p);
  for (const ZipGroup& z : spec.zips)
    for (const ParamSpec& m : z.members) see_spec(m);
  for (const IncludeSpec& inc : spec.includes)
    for (const ParamSpec& p : inc.params) see_spec(p);

  for (const DeriveSpec& d : spec.derive) {
    const std::string key = "derive." + d.name;
    add_name(d.name, d.loc, key);
    if (d.formula.empty()) throw InputError(d.loc, key, "the formula is empty");
    im.derive.push_back({d.formula, key, d.loc, slot_of[d.name]});
  }

  for (size_t i = 0; i < spec.excludes.size(); ++i) {
    const ExcludeSpec& ex = spec.excludes[i];
    const std::string key = "exclude[" + std::to_string(i) + "]";
    if (ex.match.empty() && ex.condition.empty())
      throw InputError(ex.loc, key, "an exclude needs parameter values or a condition");
    ExcludeRule rule;
    for (const ParamSpec& m : ex.match) {
      const auto it = slot_of.find(m.name);
      if (it == slot_of.end())
        throw InputError(m.loc, key + "." + m.name,
                         "unknown parameter \"" + m.name +
                             "\" (known: " + join(im.names, im.names.size()) + ")");
      if (m.values.empty()) throw InputError(m.loc, key + "." + m.name, "has no values");
      rule.members.push_back({it->second, m.values});
    }
    if (!ex.condition.empty()) {
      rule.condition = static_cast<int>(im.conditions.size());
      im.conditions.push_back({ex.condition, key, ex.loc, 0});
    }
    im.excludes.push_back(std::move(rule));
  }

  // The first base point, on which formulas are checked once (real values of the right types).
  im.first_point.reserve(im.names.size());
  for (const auto& n : im.names) im.first_point.emplace_back(n, Value());
  std::vector<char> dirty(im.names.size(), 1);
  im.grids[0].for_each(im.first_point, dirty, [](const std::vector<size_t>&) { return false; });
  if (!im.derive.empty() || !im.conditions.empty()) {
    ParamList probe = im.first_point;
    Evaluator(im.names, im.kinds, im.derive, im.conditions).validate(probe);
  }
}

Sweep::~Sweep() = default;
Sweep::Sweep(Sweep&&) noexcept = default;
Sweep& Sweep::operator=(Sweep&&) noexcept = default;

const std::vector<std::string>& Sweep::names() const {
  return impl_->names;
}

void Sweep::for_each(const std::function<bool(const ParamList&)>& fn) const {
  for_each(fn, nullptr);
}

void Sweep::for_each(const std::function<bool(const ParamList&)>& fn,
                     const ValueFilter& filter) const {
  const Impl& im = *impl_;
  ParamList point = im.first_point;
  std::vector<char> dirty(point.size(), 1);
  std::unique_ptr<Evaluator> ev;
  if (!im.derive.empty() || !im.conditions.empty()) {
    ev = std::make_unique<Evaluator>(im.names, im.kinds, im.derive, im.conditions);
    ParamList probe = point;
    ev->validate(probe);
  }
  std::vector<std::vector<size_t>> allowed;
  for (size_t g = 0; g < im.grids.size(); ++g) {
    const Grid& grid = im.grids[g];
    if (filter) {
      bool none = false;
      for (const auto& [slot, value] : grid.fixed()) none = none || !filter(im.names[slot], value);
      if (none) continue;
      allowed.assign(grid.axes().size(), {});
      for (size_t a = 0; a < grid.axes().size(); ++a) {
        const Axis& ax = grid.axes()[a];
        for (size_t step = 0; step < ax.values[0].size(); ++step) {
          bool ok = true;
          for (size_t m = 0; m < ax.slots.size() && ok; ++m)
            ok = filter(im.names[ax.slots[m]], ax.values[m][step]);
          if (ok) allowed[a].push_back(step);
        }
      }
    }
    const bool completed = grid.for_each(
        point, dirty,
        [&](const std::vector<size_t>& steps) {
          if (im.dedupe) {
            if (grid.has_repeated_values() && !grid.is_first_occurrence(steps)) return true;
            for (size_t h = 0; h < g; ++h)
              if (im.grids[h].contains(point)) return true;
          }
          if (ev) {
            ev->load(point, dirty);
            ev->derive(point);
          }
          for (const ExcludeRule& rule : im.excludes) {
            bool hit = true;
            for (const auto& m : rule.members)
              if (!(hit = im.matches(m, point))) break;
            if (hit && rule.condition >= 0)
              hit = ev->condition(static_cast<size_t>(rule.condition), point);
            if (hit) return true;
          }
          return fn(point);
        },
        filter ? &allowed : nullptr);
    if (!completed) return;
  }
}

size_t Sweep::max_points() const {
  size_t n = 0;
  for (const auto& g : impl_->grids) {
    const size_t s = g.size();
    if (s > SIZE_MAX - n) return SIZE_MAX;
    n += s;
  }
  return n;
}

size_t Sweep::count() const {
  size_t n = 0;
  for_each([&n](const ParamList&) {
    ++n;
    return true;
  });
  return n;
}

}  // namespace aerun
