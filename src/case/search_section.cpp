// The `search:` section of a case file: a parameter searched by bisection instead of enumerated.
#include <algorithm>

#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

const std::vector<std::string>& search_keys() {
  static const std::vector<std::string> keys{"param", "min", "max", "step", "goal"};
  return keys;
}

// More candidates than this is a search that should use a coarser step.
constexpr long long kMaxCandidates = 10000;

}  // namespace

void read_search(const YamlReader& r, const Item& it, CaseSpec& spec) {
  r.expect_map(it);
  SearchSpec s;
  s.loc = it.loc;
  bool has_param = false, has_min = false, has_max = false;
  SourceLoc param_loc = it.loc, max_loc = it.loc;
  std::string param_key = it.key + ".param", max_key = it.key + ".max";
  for (const Item& e : r.entries(it, search_keys())) {
    if (e.name == "param") {
      s.param = r.text(e);
      param_loc = e.loc;
      param_key = e.key;
      has_param = true;
    } else if (e.name == "min") {
      s.min = r.integer(e);
      has_min = true;
    } else if (e.name == "max") {
      s.max = r.integer(e);
      max_loc = e.loc;
      max_key = e.key;
      has_max = true;
    } else if (e.name == "step") {
      s.step = r.integer(e);
      if (s.step < 1) throw InputError(e.loc, e.key, "must be at least 1");
    } else if (e.name == "goal") {
      s.goal = r.text(e);
      if (s.goal != "largest_ok" && s.goal != "smallest_ok")
        throw InputError(e.loc, e.key,
                         "the goal is largest_ok or smallest_ok, not '" + s.goal + "'" +
                             did_you_mean(s.goal, {"largest_ok", "smallest_ok"}));
    }
  }
  for (const auto& [has, name] :
       {std::pair{has_param, "param"}, std::pair{has_min, "min"}, std::pair{has_max, "max"}})
    if (!has) throw InputError(it.loc, it.key, std::string("missing required key '") + name + "'");

  if (!is_identifier(s.param))
    throw InputError(
        param_loc, param_key,
        "parameter names are identifiers ([A-Za-z_][A-Za-z0-9_]*), not '" + s.param + "'");
  const auto& builtins = builtin_placeholders();
  if (std::find(builtins.begin(), builtins.end(), s.param) != builtins.end())
    throw InputError(param_loc, param_key,
                     "'" + s.param + "' is a built-in placeholder and cannot be searched");
  const auto names = parameter_names(spec);
  if (std::find(names.begin(), names.end(), s.param) != names.end())
    throw InputError(
        param_loc, param_key,
        "'" + s.param + "' is searched and cannot also be set in params, zip or derive");
  for (size_t i = 0; i < spec.includes.size(); ++i)
    for (const auto& p : spec.includes[i].params)
      if (p.name == s.param)
        throw InputError(p.loc, "include[" + std::to_string(i) + "]." + p.name,
                         "'" + s.param + "' is searched and cannot be set by an include");
  if (s.max < s.min)
    throw InputError(
        max_loc, max_key,
        "max (" + std::to_string(s.max) + ") is below min (" + std::to_string(s.min) + ")");
  // (max - min) / step + 1 without overflow for any long long bounds.
  const unsigned long long span =
      static_cast<unsigned long long>(s.max) - static_cast<unsigned long long>(s.min);
  if (span / static_cast<unsigned long long>(s.step) >= kMaxCandidates)
    throw InputError(max_loc, max_key,
                     "more than " + std::to_string(kMaxCandidates) +
                         " values between min and max; use a larger step");

  // The searched parameter as a parameter of the sweep: every candidate value.
  ParamSpec p;
  p.name = s.param;
  p.loc = param_loc;
  p.is_list = true;
  for (long long v = s.min;; v += s.step) {
    p.values.push_back(Value::of_int(v));
    if (s.max - v < s.step) break;
  }
  spec.params.push_back(std::move(p));
  spec.search = std::move(s);
}

}  // namespace aerun::detail
