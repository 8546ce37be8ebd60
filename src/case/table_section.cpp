// The tables of a case file: rows, columns, filters and the paper's reference values.
#include <fmt/format.h>

#include <algorithm>

#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? "none" : s;
}

// What a table of this case may refer to.
struct Names {
  std::vector<std::string> params;   // params, zip members, derived
  std::vector<std::string> sources;  // metrics, params, startup_s, wall_s
  bool open_sources = false;         // presets may bring more metrics
};

Names names_of(const CaseSpec& spec) {
  Names n;
  n.params = parameter_names(spec);
  for (const auto& m : spec.metrics) n.sources.push_back(m.name);
  n.sources.insert(n.sources.end(), n.params.begin(), n.params.end());
  n.sources.push_back("startup_s");
  n.sources.push_back("wall_s");
  n.open_sources = !spec.presets.empty();
  return n;
}

void check_source(const std::string& s, const Item& at, const Names& names) {
  if (names.open_sources || contains(names.sources, s)) return;
  throw InputError(at.loc, at.key,
                   "unknown column source '" + s + "'" + did_you_mean(s, names.sources) +
                       "; a column shows a metric, a parameter, startup_s or wall_s");
}

ColumnSpec read_column(const YamlReader& r, const Item& c, const Names& names) {
  static const std::vector<std::string> aggs{"median", "mean", "min", "max",
                                             "first",  "last", "n",   "stdev"};
  ColumnSpec col;
  if (c.node.IsScalar()) {
    col.source = r.text(c);
    check_source(col.source, c, names);
    col.label = col.source;
    return col;
  }
  if (!c.node.IsMap())
    throw InputError(c.loc, c.key,
                     "expected a metric name or a map with 'metric', got " + describe(c.node));
  bool has_metric = false;
  for (const Item& e : r.entries(c, {"metric", "label", "agg", "format"})) {
    if (e.name == "metric") {
      col.source = r.text(e);
      check_source(col.source, e, names);
      has_metric = true;
    } else if (e.name == "label") {
      col.label = r.text(e);
    } else if (e.name == "agg") {
      col.agg = r.text(e);
      if (!contains(aggs, col.agg))
        throw InputError(e.loc, e.key,
                         "unknown aggregate '" + col.agg + "'" + did_you_mean(col.agg, aggs) +
                             "; use " + joined(aggs));
    } else if (e.name == "format") {
      col.format = r.text(e);
      try {
        (void)fmt::format(fmt::runtime("{:" + col.format + "}"), 1.5);
      } catch (const fmt::format_error& err) {
        throw InputError(e.loc, e.key,
                         "invalid number format '" + col.format + "' (" + err.what() +
                             "); write a fmt spec such as .2f or .3g");
      }
    }
  }
  if (!has_metric) throw InputError(c.loc, c.key, "missing required key 'metric'");
  if (col.label.empty()) col.label = col.source;
  return col;
}

// A where entry: a map of parameter values (a list = any of), expanded into plain matches.
void read_where(const YamlReader& r, const Item& w, const Names& names, TableSpec& t) {
  std::vector<ParamList> expanded{ParamList{}};
  for (const Item& e : r.entries(w)) {
    if (!contains(names.params, e.name))
      throw InputError(e.key_loc, e.key,
                       "unknown parameter '" + e.name + "'" + did_you_mean(e.name, names.params));
    std::vector<Value> values;
    if (e.node.IsSequence())
      for (const Item& v : r.elements(e)) values.push_back(r.value(v));
    else
      values.push_back(r.value(e));
    if (values.empty()) throw InputError(e.loc, e.key, "the list of values is empty");
    std::vector<ParamList> next;
    for (const auto& base : expanded)
      for (const auto& v : values) {
        next.push_back(base);
        next.back().emplace_back(e.name, v);
      }
    expanded = std::move(next);
  }
  if (w.node.size() == 0) throw InputError(w.loc, w.key, "a where entry needs parameters");
  t.where.insert(t.where.end(), expanded.begin(), expanded.end());
}

// A reference entry: row parameters select the row, every other key is a column's paper value.
void read_reference(const YamlReader& r, const Item& ref, TableSpec& t) {
  std::vector<std::string> sources;
  for (const auto& c : t.columns) sources.push_back(c.source);
  ParamList match;
  std::vector<Reference> values;
  for (const Item& e : r.entries(ref)) {
    if (contains(t.rows, e.name)) {
      match.emplace_back(e.name, r.value(e));
    } else if (contains(sources, e.name)) {
      values.push_back(Reference{{}, e.name, r.number(e), e.key_loc});
    } else {
      std::vector<std::string> valid = t.rows;
      valid.insert(valid.end(), sources.begin(), sources.end());
      throw InputError(e.key_loc, e.key,
                       "'" + e.name + "' is neither a row parameter (" + joined(t.rows) +
                           ") nor a column (" + joined(sources) + ") of table '" + t.name + "'" +
                           did_you_mean(e.name, valid));
    }
  }
  for (const auto& row : t.rows)
    if (!find_param(match, row))
      throw InputError(ref.loc, ref.key,
                       "a reference must give every row parameter; '" + row + "' is missing");
  if (values.empty())
    throw InputError(ref.loc, ref.key, "a reference must give at least one column value");
  for (auto& v : values) {
    v.match = match;
    t.references.push_back(std::move(v));
  }
}

double read_tolerance(const YamlReader& r, const Item& e) {
  double tol = 0;
  const std::string s = e.node.IsScalar() ? e.node.Scalar() : "";
  if (!s.empty() && s.back() == '%') {
    const Value v = Value::parse(s.substr(0, s.size() - 1));
    if (!v.is_number() || v.kind() == Value::Kind::Bool)
      throw InputError(e.loc, e.key, "expected a number or a percentage, got " + describe(e.node));
    tol = *v.number() / 100;
  } else {
    tol = r.number(e);
  }
  if (tol < 0) throw InputError(e.loc, e.key, "a tolerance cannot be negative");
  return tol;
}

TableSpec read_table(const YamlReader& r, const Item& it, const Names& names) {
  if (!is_name(it.name))
    throw InputError(it.key_loc, it.key,
                     "table names are made of [A-Za-z0-9_.-], not '" + it.name + "'");
  TableSpec t;
  t.name = it.name;
  t.loc = it.key_loc;
  std::vector<Item> references;  // read once rows and columns are known
  bool has_columns = false;
  for (const Item& e :
       r.entries(it, {"title", "rows", "columns", "where", "tolerance", "reference"})) {
    if (e.name == "title") {
      t.title = r.text(e);
    } else if (e.name == "rows") {
      const std::vector<Item> rows = e.node.IsScalar() ? std::vector<Item>{e} : r.elements(e);
      for (const Item& row : rows) {
        const std::string p = r.text(row);
        if (!contains(names.params, p))
          throw InputError(
              row.loc, row.key,
              "rows must be parameters; '" + p + "' is not one" + did_you_mean(p, names.params));
        t.rows.push_back(p);
      }
    } else if (e.name == "columns") {
      for (const Item& c : r.elements(e)) t.columns.push_back(read_column(r, c, names));
      has_columns = !t.columns.empty();
    } else if (e.name == "where") {
      const std::vector<Item> ws = e.node.IsMap() ? std::vector<Item>{e} : r.elements(e);
      for (const Item& w : ws) read_where(r, w, names, t);
    } else if (e.name == "tolerance") {
      t.tolerance = read_tolerance(r, e);
    } else if (e.name == "reference") {
      references = r.elements(e);
    }
  }
  if (!has_columns) throw InputError(it.loc, it.key, "a table needs at least one column");
  for (const Item& ref : references) read_reference(r, ref, t);
  return t;
}

}  // namespace

void read_tables(const YamlReader& r, const Item& it, CaseSpec& spec) {
  const Names names = names_of(spec);
  for (const Item& t : r.entries(it)) spec.tables.push_back(read_table(r, t, names));
}

}  // namespace aerun::detail
