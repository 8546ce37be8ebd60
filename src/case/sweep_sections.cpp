// The sweep sections of a case file: params, zip, include, exclude, derive.
#include <algorithm>

#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

void check_param_name(const Item& e) {
  if (!is_identifier(e.name))
    throw InputError(
        e.key_loc, e.key,
        "parameter names are identifiers ([A-Za-z_][A-Za-z0-9_]*), not '" + e.name + "'");
  const auto& builtins = builtin_placeholders();
  if (std::find(builtins.begin(), builtins.end(), e.name) != builtins.end())
    throw InputError(e.key_loc, e.key,
                     "'" + e.name + "' is a built-in placeholder and cannot be a parameter");
}

// One `name: value` or `name: [values]` entry; `list_only` demands the list form.
ParamSpec read_param(const YamlReader& r, const Item& e, bool list_only) {
  check_param_name(e);
  ParamSpec p;
  p.name = e.name;
  p.loc = e.key_loc;
  if (e.node.IsSequence()) {
    p.is_list = true;
    for (const Item& v : r.elements(e)) p.values.push_back(r.value(v));
    if (p.values.empty()) throw InputError(e.loc, e.key, "the list of values is empty");
  } else if (list_only) {
    throw InputError(e.loc, e.key, "expected a list of values, got " + describe(e.node));
  } else if (e.node.IsScalar()) {
    p.values.push_back(r.value(e));
  } else {
    throw InputError(e.loc, e.key, "expected a value or a list of values, got " + describe(e.node));
  }
  return p;
}

}  // namespace

void read_params(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& e : r.entries(it)) spec.params.push_back(read_param(r, e, false));
}

void read_zip(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& g : r.elements(it)) {
    ZipGroup group;
    group.loc = g.loc;
    for (const Item& e : r.entries(g)) {
      ParamSpec p = read_param(r, e, true);
      if (!group.members.empty() && p.values.size() != group.members.front().values.size()) {
        const ParamSpec& first = group.members.front();
        throw InputError(e.loc, e.key,
                         "zipped lists must have equal lengths: '" + p.name + "' has " +
                             std::to_string(p.values.size()) + " values, '" + first.name +
                             "' has " + std::to_string(first.values.size()));
      }
      group.members.push_back(std::move(p));
    }
    if (group.members.empty()) throw InputError(g.loc, g.key, "a zip group needs lists to zip");
    spec.zips.push_back(std::move(group));
  }
}

void read_include(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& g : r.elements(it)) {
    IncludeSpec inc;
    inc.loc = g.loc;
    for (const Item& e : r.entries(g)) inc.params.push_back(read_param(r, e, false));
    if (inc.params.empty())
      throw InputError(g.loc, g.key, "an include entry must set at least one parameter");
    spec.includes.push_back(std::move(inc));
  }
}

void read_exclude(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& g : r.elements(it)) {
    ExcludeSpec ex;
    ex.loc = g.loc;
    if (g.node.IsScalar()) {
      ex.condition = r.text(g);
    } else if (g.node.IsMap()) {
      for (const Item& e : r.entries(g)) ex.match.push_back(read_param(r, e, false));
      if (ex.match.empty())
        throw InputError(g.loc, g.key, "an exclude entry must name at least one parameter");
    } else {
      throw InputError(
          g.loc, g.key,
          "expected a map of parameter values or a condition string, got " + describe(g.node));
    }
    spec.excludes.push_back(std::move(ex));
  }
}

void read_derive(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& e : r.entries(it)) {
    check_param_name(e);
    spec.derive.push_back(DeriveSpec{e.name, r.text(e), e.key_loc});
  }
}

}  // namespace aerun::detail
