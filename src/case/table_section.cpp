// The tables of a case file: rows, columns, filters and the paper's reference values.
#include <fmt/format.h>

#include <algorithm>

#include "aerun/record/run_times.hpp"
#include "aerun/util/calendar_time.hpp"
#include "aerun/util/log_time.hpp"
#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

// What a table of this case may refer to.
struct Names {
  std::vector<std::string> params;     // params, zip members, derived
  std::vector<std::string> sources;    // metrics, params, run times (start, startup_s, ...)
  std::vector<std::string> shadowing;  // metrics and params: a run time of their name is hidden
};

Names names_of(const CaseSpec& spec) {
  Names n;
  n.params = parameter_names(spec);
  for (const auto& m : spec.metrics) n.sources.push_back(m.name);
  n.sources.insert(n.sources.end(), n.params.begin(), n.params.end());
  n.shadowing = n.sources;
  for (const RunTime& t : kRunTimes)
    if (!contains(n.sources, std::string(t.name))) n.sources.emplace_back(t.name);
  // Presets are resolved by now: spec.metrics holds every metric a run can have.
  if (!spec.startup.job_start.empty() && !spec.startup.step_time.empty())
    n.sources.push_back("log_startup_s");
  return n;
}

void check_source(const std::string& s, const Item& at, const Names& names) {
  if (contains(names.sources, s)) return;
  throw InputError(at.loc, at.key,
                   "unknown column source '" + s + "'" + did_you_mean(s, names.sources) +
                       "; a column shows a metric, a parameter or a run time (start, "
                       "first_output, first_step, end, submit, job_start, startup_s, wall_s, "
                       "queue_wait_s)");
}

// Whether a column source is a calendar time of the run (start, first_step...), not hidden by a
// metric or parameter of the same name.
bool is_instant(const std::string& source, const Names& names) {
  const RunTime* t = find_run_time(source);
  return t && t->instant && !contains(names.shadowing, source);
}

// The checks that depend on the source once the whole column is read: an instant takes a
// strftime format and an order-based aggregate, and is no speedup.
void check_column(const ColumnSpec& col, const Item& c, const std::vector<Item>& entries,
                  const Names& names, bool has_agg) {
  auto at = [&](const std::string& name) -> const Item& {
    for (const Item& e : entries)
      if (e.name == name) return e;
    return c;
  };
  static const std::vector<std::string> instant_aggs = aggregation_names(true);
  if (!is_instant(col.source, names)) {
    if (!col.format.empty()) {
      try {
        (void)fmt::format(fmt::runtime("{:" + col.format + "}"), 1.5);
      } catch (const fmt::format_error& err) {
        throw InputError(at("format").loc, at("format").key,
                         "invalid number format '" + col.format + "' (" + err.what() +
                             "); write a fmt spec such as .2f or .3g");
      }
    }
    if (!col.tz.empty())
      throw InputError(at("tz").key_loc, at("tz").key,
                       "'tz' belongs to a calendar-time column (start, first_step, end, ...); '" +
                           col.source + "' is not one");
    return;
  }
  if (!col.speedup_of.empty())
    throw InputError(at("speedup").loc, at("speedup").key,
                     "'" + col.source +
                         "' is a calendar time; a speedup compares durations or "
                         "rates (e.g. startup_s)");
  if (has_agg && !applies_to_instants(col.agg))
    throw InputError(at("agg").loc, at("agg").key,
                     "'" + col.source + "' is a calendar time: aggregate it with " +
                         joined(instant_aggs) + " (a " + std::string(to_string(col.agg)) +
                         " of instants is no instant of any run)");
  if (const auto problem = calendar_format_problem(col.format))
    throw InputError(at("format").loc, at("format").key,
                     "invalid time format '" + col.format + "': " + *problem);
  if (!col.tz.empty() && !parse_utc_offset(col.tz))
    throw InputError(
        at("tz").loc, at("tz").key,
        "unknown time zone '" + col.tz + "'; write UTC or a fixed offset such as +02:00 or -0500");
}

// A speedup column's `of`: row parameters (or the pivot) with the value of the other row.
ParamList read_speedup_of(const YamlReader& r, const Item& e, const Names& names) {
  if (!e.node.IsMap())
    throw InputError(e.loc, e.key,
                     "expected a map of parameter values selecting the other row, e.g. "
                     "{method: stronghold}, got " +
                         describe(e.node));
  ParamList of;
  for (const Item& p : r.entries(e)) {
    if (!contains(names.params, p.name))
      throw InputError(p.key_loc, p.key,
                       "unknown parameter '" + p.name + "'" + did_you_mean(p.name, names.params));
    of.emplace_back(p.name, r.value(p));
  }
  if (of.empty()) throw InputError(e.loc, e.key, "'of' needs at least one parameter");
  return of;
}

ColumnSpec read_column(const YamlReader& r, const Item& c, const Names& names) {
  static const std::vector<std::string> aggs = aggregation_names();
  ColumnSpec col;
  if (c.node.IsScalar()) {
    col.source = r.text(c);
    check_source(col.source, c, names);
    col.label = col.source;
    if (is_instant(col.source, names)) col.agg = Aggregation::First;
    return col;
  }
  if (!c.node.IsMap())
    throw InputError(c.loc, c.key,
                     "expected a metric name or a map with 'metric', got " + describe(c.node));
  bool has_metric = false, has_speedup = false, has_of = false, has_agg = false;
  const std::vector<Item> entries = r.entries(
      c, {"metric", "speedup", "of", "lower_is_better", "label", "agg", "format", "unit", "tz"});
  for (const Item& e : entries) {
    if (e.name == "metric" || e.name == "speedup") {
      if (has_metric || has_speedup)
        throw InputError(e.key_loc, e.key, "a column has either 'metric' or 'speedup', not both");
      col.source = r.text(e);
      check_source(col.source, e, names);
      (e.name == "metric" ? has_metric : has_speedup) = true;
    } else if (e.name == "of") {
      col.speedup_of = read_speedup_of(r, e, names);
      has_of = true;
    } else if (e.name == "lower_is_better") {
      col.lower_is_better = r.boolean(e);
    } else if (e.name == "unit") {
      col.unit = r.text(e);
    } else if (e.name == "label") {
      col.label = r.text(e);
    } else if (e.name == "tz") {
      col.tz = r.text(e);
    } else if (e.name == "agg") {
      has_agg = true;
      const std::string name = r.text(e);
      const auto agg = parse_aggregation(name);
      if (!agg)
        throw InputError(e.loc, e.key,
                         "unknown aggregate '" + name + "'" + did_you_mean(name, aggs) + "; use " +
                             joined(aggs));
      col.agg = *agg;
    } else if (e.name == "format") {
      col.format = r.text(e);
    }
  }
  if (!has_metric && !has_speedup)
    throw InputError(c.loc, c.key, "missing required key 'metric' (or 'speedup')");
  if (has_speedup != has_of)
    throw InputError(c.loc, c.key,
                     has_speedup ? "a speedup column needs 'of' (the row it compares with)"
                                 : "'of' belongs to a speedup column (write 'speedup: METRIC')");
  if (col.label.empty()) col.label = has_speedup ? "speedup" : col.source;
  check_column(col, c, entries, names, has_agg);
  if (!has_agg && is_instant(col.source, names)) col.agg = Aggregation::First;
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

// The column a reference key names: a measured column by its source (or label), a speedup
// column by its label (its source is the metric it compares, not the speedup); nullptr if none.
const ColumnSpec* referenced_column(const TableSpec& t, const std::string& key) {
  for (const auto& c : t.columns)
    if (c.speedup_of.empty() && c.source == key) return &c;
  for (const auto& c : t.columns)
    if (c.label == key) return &c;
  return nullptr;
}

// A reference entry: row parameters select the row, every other key is a column's paper value.
void read_reference(const YamlReader& r, const Item& ref, const Names& names, TableSpec& t) {
  std::vector<std::string> columns;  // how a reference may name each column
  for (const auto& c : t.columns) {
    if (c.speedup_of.empty() && !contains(columns, c.source)) columns.push_back(c.source);
    if (!contains(columns, c.label)) columns.push_back(c.label);
  }
  std::vector<std::string> keys = t.rows;  // a pivot table's references name the pivot too
  if (!t.pivot.empty()) keys.push_back(t.pivot);
  ParamList match;
  std::vector<Reference> values;
  for (const Item& e : r.entries(ref)) {
    if (contains(keys, e.name)) {
      match.emplace_back(e.name, r.value(e));
    } else if (const ColumnSpec* col = referenced_column(t, e.name)) {
      if (is_instant(col->source, names))
        throw InputError(e.key_loc, e.key,
                         "'" + e.name +
                             "' is a calendar time; a reference gives the paper's "
                             "number for a measured, derived or speedup column");
      values.push_back(Reference{{}, e.name, r.number(e), e.key_loc});
    } else {
      std::vector<std::string> valid = keys;
      valid.insert(valid.end(), columns.begin(), columns.end());
      throw InputError(e.key_loc, e.key,
                       "'" + e.name + "' is neither a row parameter (" + joined(keys) +
                           ") nor a column (" + joined(columns) + ") of table '" + t.name + "'" +
                           did_you_mean(e.name, valid));
    }
  }
  for (const auto& row : keys)
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

// `derive:` of a table: name -> formula, or {formula, unit}. Names become column sources.
void read_table_derive(const YamlReader& r, const Item& e, Names& names, TableSpec& t) {
  for (const Item& d : r.entries(e)) {
    if (!is_identifier(d.name))
      throw InputError(d.key_loc, d.key,
                       "derived metric names are [A-Za-z_][A-Za-z0-9_]*, not '" + d.name + "'");
    if (contains(names.sources, d.name))
      throw InputError(d.key_loc, d.key,
                       "'" + d.name + "' is already a metric, parameter or run time of this case");
    TableDerive td;
    td.name = d.name;
    td.loc = d.loc;
    if (d.node.IsMap()) {
      bool has_formula = false;
      for (const Item& f : r.entries(d, {"formula", "unit"})) {
        if (f.name == "formula") {
          td.formula = r.text(f);
          td.loc = f.loc;
          has_formula = true;
        } else {
          td.unit = r.text(f);
        }
      }
      if (!has_formula) throw InputError(d.loc, d.key, "missing required key 'formula'");
    } else {
      td.formula = r.text(d);
    }
    names.sources.push_back(td.name);
    t.derive.push_back(std::move(td));
  }
}

// A pivot is not a row parameter; a speedup's `of` names row parameters (or the pivot).
void check_pivot_and_speedups(const Item& it, const TableSpec& t) {
  if (!t.pivot.empty() && contains(t.rows, t.pivot))
    throw InputError(
        it.loc, it.key + ".pivot",
        "'" + t.pivot + "' is both a row parameter and the pivot; rows: " + joined(t.rows));
  std::vector<std::string> keys = t.rows;
  if (!t.pivot.empty()) keys.push_back(t.pivot);
  for (const auto& col : t.columns)
    for (const auto& [name, value] : col.speedup_of)
      if (!contains(keys, name))
        throw InputError(it.loc, it.key + ".columns." + col.label + ".of",
                         "'" + name + "' must be a row parameter (" + joined(keys) +
                             ") so that the other row exists");
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
  Names local = names;  // plus the table's derived metrics
  std::vector<Item> entries = r.entries(it, {"title", "rows", "columns", "where", "tolerance",
                                             "reference", "derive", "pivot", "runs_from"});
  // derive first: columns may show derived metrics wherever derive is written.
  for (const Item& e : entries)
    if (e.name == "derive") read_table_derive(r, e, local, t);
  for (const Item& e : entries) {
    if (e.name == "derive") {
      continue;
    } else if (e.name == "pivot") {
      t.pivot = r.text(e);
      // `system`: the system each run ran on (docs/systems.md), unless a parameter has the name.
      if (!contains(names.params, t.pivot) && t.pivot != "system")
        throw InputError(e.loc, e.key,
                         "pivot must be a parameter (or system); '" + t.pivot + "' is not one" +
                             did_you_mean(t.pivot, names.params));
    } else if (e.name == "runs_from") {
      for (const std::string& n : r.texts(e)) {
        if (!is_name(n))
          throw InputError(e.loc, e.key, "case names are made of [A-Za-z0-9_.-], not '" + n + "'");
        t.runs_from.push_back(n);
      }
    } else if (e.name == "title") {
      t.title = r.text(e);
    } else if (e.name == "rows") {
      const std::vector<Item> rows = e.node.IsScalar() ? std::vector<Item>{e} : r.elements(e);
      for (const Item& row : rows) {
        const std::string p = r.text(row);
        if (!contains(names.params, p) && p != "system")
          throw InputError(row.loc, row.key,
                           "rows must be parameters (or system); '" + p + "' is not one" +
                               did_you_mean(p, names.params));
        t.rows.push_back(p);
      }
    } else if (e.name == "columns") {
      for (const Item& c : r.elements(e)) t.columns.push_back(read_column(r, c, local));
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
  check_pivot_and_speedups(it, t);
  for (const Item& ref : references) read_reference(r, ref, names, t);
  return t;
}

}  // namespace

void read_tables(const YamlReader& r, const Item& it, CaseSpec& spec) {
  const Names names = names_of(spec);
  for (const Item& t : r.entries(it)) spec.tables.push_back(read_table(r, t, names));
}

}  // namespace aerun::detail
