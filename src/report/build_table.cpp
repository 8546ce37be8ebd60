#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "aerun/calendar_time.hpp"
#include "aerun/error.hpp"
#include "aerun/log_time.hpp"
#include "aerun/run_times.hpp"
#include "aerun/table.hpp"
#include "report/run_formulas.hpp"

namespace aerun {

namespace {

constexpr double kPassEpsilon = 1e-9;  // so that a ratio exactly at the tolerance edge passes

// What a column's source refers to.
enum class SourceKind { Metric, RunTime, Param };

// A column's source, resolved: a run time has its field, an instant its time zone.
struct Source {
  SourceKind kind = SourceKind::Metric;
  const RunTime* time = nullptr;  // RunTime only
  long offset_s = 0;              // instants: seconds east of UTC they are shown in
  std::string zone;               // instants: "UTC" or "+02:00", the header's default unit
  bool params_only = false;       // a derived metric of parameters alone: failed runs have it

  bool instant() const { return time && time->instant; }
};

const char* const kInstantAggregations[] = {"first", "last", "min", "max", "n"};
constexpr const char* kDefaultTimeFormat = "%Y-%m-%d %H:%M:%S";

const char* const kAggregations[] = {"median", "mean", "min",   "max", "first",
                                     "last",   "n",    "stdev", "sum", "largest_ok"};

// Numbers compare by value ("64" equals "64.0"), everything else by text.
bool values_equal(const Value& a, const Value& b) {
  const auto na = a.number(), nb = b.number();
  if (na && nb && a.kind() != Value::Kind::Bool && b.kind() != Value::Kind::Bool) return *na == *nb;
  return a.text() == b.text();
}

// True when every entry of `filter` is a parameter of `params` with an equal value.
bool params_match(const ParamList& params, const ParamList& filter) {
  return std::all_of(filter.begin(), filter.end(), [&](const auto& entry) {
    const Value* v = find_param(params, entry.first);
    return v && values_equal(*v, entry.second);
  });
}

bool point_selected(const std::string& case_name, const ParamList& params, const CaseSpec& c,
                    const TableSpec& t) {
  if (case_name != c.name &&
      std::find(t.runs_from.begin(), t.runs_from.end(), case_name) == t.runs_from.end())
    return false;
  if (t.where.empty()) return true;
  return std::any_of(t.where.begin(), t.where.end(),
                     [&](const ParamList& w) { return params_match(params, w); });
}

bool run_selected(const RunRecord& r, const CaseSpec& c, const TableSpec& t) {
  return point_selected(r.case_name, r.params, c, t);
}

// Rows accumulate the runs that share their key, and count the runs planned for them.
struct RowAcc {
  std::vector<Value> key;
  std::vector<const RunRecord*> runs;
  int planned = 0;
};

bool key_less(const std::vector<Value>& a, const std::vector<Value>& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

bool key_equal(const std::vector<Value>& a, const std::vector<Value>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), values_equal);
}

// Rows by key in constant time, so that a table of a million runs is built in linear time. Keys
// compare as values_equal does: numbers by value ("64" equals "64.0", also when a quoted string
// holds the number), everything else by text.
class RowIndex {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);

  size_t find(const std::vector<Value>& key) const {
    const auto it = map_.find(canonical(key));
    return it == map_.end() ? npos : it->second;
  }
  void add(const std::vector<Value>& key, size_t row) { map_.emplace(canonical(key), row); }

 private:
  static std::string canonical(const std::vector<Value>& key) {
    std::string out;
    for (const Value& v : key) {
      std::optional<double> n = v.kind() == Value::Kind::Bool ? std::nullopt : v.number();
      if (!n && v.kind() == Value::Kind::String) {
        const Value parsed = Value::parse(v.text());
        if (parsed.kind() == Value::Kind::Int || parsed.kind() == Value::Kind::Float)
          n = parsed.number();
      }
      const std::string text = n ? fmt::format("{}", *n == 0 ? 0.0 : *n) : v.text();
      out += fmt::format("{}{}:", n ? 'n' : 's', text.size());
      out += text;
    }
    return out;
  }

  std::unordered_map<std::string, size_t> map_;
};

std::string label_of(const ColumnSpec& col) {
  return col.label.empty() ? col.source : col.label;
}

std::string column_key(const TableSpec& t, const ColumnSpec& col, const std::string& what) {
  return fmt::format("tables.{}.columns.{}.{}", t.name, label_of(col), what);
}

bool case_declares_param(const CaseSpec& c, const std::string& name) {
  auto named = [&](const auto& p) { return p.name == name; };
  if (std::any_of(c.params.begin(), c.params.end(), named)) return true;
  if (std::any_of(c.derive.begin(), c.derive.end(), named)) return true;
  for (const auto& z : c.zips)
    if (std::any_of(z.members.begin(), z.members.end(), named)) return true;
  for (const auto& inc : c.includes)
    if (std::any_of(inc.params.begin(), inc.params.end(), named)) return true;
  return false;
}

// A metric or parameter of the case hides a run time of the same name (docs/tables.md).
SourceKind source_kind(const CaseSpec& c, const std::string& source,
                       const std::vector<const RunRecord*>& runs) {
  auto named = [&](const auto& m) { return m.name == source; };
  if (std::any_of(c.metrics.begin(), c.metrics.end(), named)) return SourceKind::Metric;
  if (case_declares_param(c, source)) return SourceKind::Param;
  if (find_run_time(source)) return SourceKind::RunTime;
  for (const RunRecord* r : runs)
    if (r->metric(source) || std::any_of(r->series.begin(), r->series.end(), named))
      return SourceKind::Metric;
  for (const RunRecord* r : runs)
    if (find_param(r->params, source)) return SourceKind::Param;
  return SourceKind::Metric;  // a metric no run has produced: its cells read "missing"
}

std::optional<double> run_value(const RunRecord& r, const Source& src, const std::string& source) {
  switch (src.kind) {
    case SourceKind::RunTime:
      return r.*(src.time->field);
    case SourceKind::Param:
      return std::nullopt;
    case SourceKind::Metric:
      break;
  }
  if (const MetricValue* m = r.metric(source)) return m->value;
  for (const auto& s : r.series)
    if (s.name == source && !s.points.empty()) return s.points.back().value;
  return std::nullopt;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// `values` are in run order (repeat index, then attempt); never empty.
double aggregate(const std::vector<double>& values, const std::string& agg) {
  const double n = static_cast<double>(values.size());
  const double sum = std::accumulate(values.begin(), values.end(), 0.0);
  if (agg == "median") return median_of(values);
  if (agg == "mean") return sum / n;
  if (agg == "min") return *std::min_element(values.begin(), values.end());
  if (agg == "max" || agg == "largest_ok") return *std::max_element(values.begin(), values.end());
  if (agg == "first") return values.front();
  if (agg == "last") return values.back();
  if (agg == "n") return n;
  if (agg == "sum") return sum;
  // stdev: the sample standard deviation (0 for a single value).
  if (values.size() < 2) return 0;
  const double mean = sum / n;
  double sq = 0;
  for (double x : values) sq += (x - mean) * (x - mean);
  return std::sqrt(sq / (n - 1));
}

std::string status_label(const std::string& status) {
  if (status == "oom") return "OOM";
  if (status == "failed") return "fail";
  return status;
}

// The statuses of runs that are not ok, e.g. "OOM" or "OOM/fail".
std::string statuses_text(const std::vector<const RunRecord*>& runs) {
  std::vector<std::string> labels;
  for (const RunRecord* r : runs) {
    std::string l = status_label(r->status);
    if (std::find(labels.begin(), labels.end(), l) == labels.end()) labels.push_back(l);
  }
  return fmt::format("{}", fmt::join(labels, "/"));
}

// An instant (not a count of them) as the column shows it, and its ISO 8601 forms.
void fill_instant(TableCell& cell, const Source& src, const ColumnSpec& col) {
  const std::string& f = col.format.empty() ? std::string(kDefaultTimeFormat) : col.format;
  cell.text = format_calendar_time(*cell.value, f, src.offset_s);
  TableCell::Instant in;
  in.iso = iso8601(*cell.value, src.offset_s);
  in.iso_min = iso8601(cell.min, src.offset_s);
  in.iso_max = iso8601(cell.max, src.offset_s);
  in.min_text = format_calendar_time(cell.min, f, src.offset_s);
  in.max_text = format_calendar_time(cell.max, f, src.offset_s);
  cell.instant = std::move(in);
}

// The cell of a metric-like column: the aggregate over ok runs, else why there is none.
TableCell measured_cell(const std::vector<const RunRecord*>& runs, const Source& src,
                        const ColumnSpec& col) {
  TableCell cell;
  std::vector<double> values;
  bool any_ok = false;
  for (const RunRecord* r : runs) {
    if (r->status != "ok" && !src.params_only) continue;
    any_ok = any_ok || r->status == "ok";
    if (auto v = run_value(*r, src, col.source)) values.push_back(*v);
  }
  if (!values.empty()) {
    const std::string agg = col.agg.empty() ? "median" : col.agg;
    cell.value = aggregate(values, agg);
    cell.min = *std::min_element(values.begin(), values.end());
    cell.max = *std::max_element(values.begin(), values.end());
    cell.n = static_cast<int>(values.size());
    if (agg == "n") {
      cell.text = fmt::format("{}", cell.n);
      cell.count = true;
      cell.min = cell.max = *cell.value;
    } else if (!src.instant())
      cell.text = format_cell_number(*cell.value, col.format);
    else
      fill_instant(cell, src, col);
    return cell;
  }
  if (runs.empty() || any_ok) {
    cell.text = "missing";
    cell.status = true;
    return cell;
  }
  cell.text = statuses_text(runs);
  cell.status = true;
  return cell;
}

// largest_ok over a parameter: the largest value among the row's ok runs (e.g. the most layers
// that trained before running out of memory), else the failed runs' statuses.
TableCell largest_ok_param_cell(const RowAcc& row, const ColumnSpec& col) {
  TableCell cell;
  std::optional<Value> best;
  for (const RunRecord* r : row.runs)
    if (r->status == "ok")
      if (const Value* v = find_param(r->params, col.source))
        if (!best || *best < *v) best = *v;
  if (best) {
    cell.value = best->number();
    cell.text = cell.value && !col.format.empty() ? format_cell_number(*cell.value, col.format)
                                                  : best->text();
    return cell;
  }
  cell.text = row.runs.empty() ? "missing" : statuses_text(row.runs);
  if (cell.text.empty()) cell.text = "missing";
  cell.status = true;
  return cell;
}

// The cell of a parameter column: its value, or its distinct values joined with "/".
TableCell param_cell(const RowAcc& row, const std::vector<std::string>& row_params,
                     const ColumnSpec& col) {
  if (col.agg == "largest_ok") return largest_ok_param_cell(row, col);
  TableCell cell;
  std::vector<Value> values;
  const auto pos = std::find(row_params.begin(), row_params.end(), col.source);
  if (pos != row_params.end()) {
    values.push_back(row.key[pos - row_params.begin()]);
  } else {
    for (const RunRecord* r : row.runs)
      if (const Value* v = find_param(r->params, col.source))
        if (std::none_of(values.begin(), values.end(),
                         [&](const Value& x) { return values_equal(x, *v); }))
          values.push_back(*v);
    std::sort(values.begin(), values.end());
  }
  if (values.empty()) {
    cell.text = "missing";
    cell.status = true;
    return cell;
  }
  std::vector<std::string> texts;
  for (const Value& v : values) texts.push_back(v.text());
  cell.text = fmt::format("{}", fmt::join(texts, "/"));
  if (values.size() == 1) cell.value = values.front().number();
  return cell;
}

// A reference selects a row when its row parameters equal the row's key and its other
// parameters are those of at least one of the row's runs.
bool reference_selects(const Reference& ref, const RowAcc& row,
                       const std::vector<std::string>& row_params) {
  for (const auto& [name, value] : ref.match) {
    const auto pos = std::find(row_params.begin(), row_params.end(), name);
    if (pos != row_params.end()) {
      if (!values_equal(row.key[pos - row_params.begin()], value)) return false;
    } else if (!row.runs.empty() &&
               std::none_of(row.runs.begin(), row.runs.end(), [&](const RunRecord* r) {
                 const Value* v = find_param(r->params, name);
                 return v && values_equal(*v, value);
               })) {
      return false;
    }
  }
  return true;
}

// The row key a reference names, when it names every row parameter.
std::optional<std::vector<Value>> reference_key(const Reference& ref,
                                                const std::vector<std::string>& row_params) {
  std::vector<Value> key;
  for (const auto& p : row_params) {
    const Value* v = find_param(ref.match, p);
    if (!v) return std::nullopt;
    key.push_back(*v);
  }
  return key;
}

// Checks a column against what its source turned out to be: an instant takes strftime formats
// and order-based aggregates, and neither a speedup nor a reference.
void validate_column_source(const TableSpec& t, const ColumnSpec& col, const Source& src) {
  if (!src.instant()) {
    if (!col.format.empty()) {
      try {
        format_cell_number(1.0, col.format);
      } catch (const InputError& e) {
        throw InputError(t.loc, column_key(t, col, "format"), e.message());
      }
    }
    return;
  }
  if (std::find(std::begin(kInstantAggregations), std::end(kInstantAggregations), col.agg) ==
      std::end(kInstantAggregations))
    throw InputError(t.loc, column_key(t, col, "agg"),
                     fmt::format("'{}' is a calendar time: aggregate it with {} (a {} of "
                                 "instants is no instant of any run)",
                                 col.source, fmt::join(kInstantAggregations, ", "), col.agg));
  if (auto problem = calendar_format_problem(col.format))
    throw InputError(t.loc, column_key(t, col, "format"),
                     fmt::format("invalid time format '{}': {}", col.format, *problem));
  if (!col.speedup_of.empty())
    throw InputError(
        t.loc, column_key(t, col, "speedup"),
        fmt::format("'{}' is a calendar time; a speedup compares durations or rates", col.source));
}

void validate_columns(const TableSpec& t) {
  for (const auto& col : t.columns) {
    if (!col.agg.empty() && std::find(std::begin(kAggregations), std::end(kAggregations),
                                      col.agg) == std::end(kAggregations))
      throw InputError(t.loc, column_key(t, col, "agg"),
                       fmt::format("unknown aggregation '{}' (use one of: {})", col.agg,
                                   fmt::join(kAggregations, ", ")));
  }
}

// What a column shows, resolved against the case and its runs.
Source resolve_source(const CaseSpec& c, const TableSpec& t, const ColumnSpec& col,
                      const std::vector<const RunRecord*>& runs) {
  Source src;
  const bool is_derived = std::any_of(t.derive.begin(), t.derive.end(),
                                      [&](const TableDerive& d) { return d.name == col.source; });
  src.kind = is_derived ? SourceKind::Metric : source_kind(c, col.source, runs);
  if (src.kind != SourceKind::RunTime) return src;
  src.time = find_run_time(col.source);
  if (!src.instant()) return src;
  src.zone = col.tz.empty() ? c.startup.tz : col.tz;
  const auto offset = parse_utc_offset(src.zone);
  if (!offset)
    throw InputError(t.loc, column_key(t, col, "tz"),
                     fmt::format("unknown time zone '{}'; write UTC or a fixed offset such as "
                                 "+02:00 or -0500",
                                 src.zone));
  src.offset_s = *offset;
  if (*offset == 0) src.zone = "UTC";
  return src;
}

// Names a formula may use: the case's parameters and metrics, and whatever the runs carry.
std::vector<std::string> formula_names(const CaseSpec& c,
                                       const std::vector<const RunRecord*>& runs) {
  std::vector<std::string> names;
  auto add = [&](const std::string& n) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  for (const auto& p : c.params) add(p.name);
  for (const auto& z : c.zips)
    for (const auto& m : z.members) add(m.name);
  for (const auto& d : c.derive) add(d.name);
  for (const auto& m : c.metrics) add(m.name);
  for (const RunTime& rt : kRunTimes) add(std::string(rt.name));
  for (const RunRecord* r : runs) {
    for (const auto& [n, v] : r->params) add(n);
    for (const auto& m : r->metrics) add(m.name);
  }
  return names;
}

// A speedup cell: the source's aggregate in the other row over (or, lower_is_better, under) this
// row's. The row compared with itself reads "—"; a side without a value gives its status.
TableCell speedup_cell(const TableCell& mine, const TableCell* other, bool self,
                       const ColumnSpec& col) {
  TableCell cell;
  if (self) {
    cell.text = "—";
  } else if (!mine.value) {
    cell.text = mine.text;
    cell.status = mine.status;
  } else if (!other || !other->value) {
    cell.text = other ? other->text : "missing";
    cell.status = other ? other->status : true;
  } else if (*mine.value != 0 && *other->value != 0) {
    cell.value = col.lower_is_better ? *mine.value / *other->value : *other->value / *mine.value;
    cell.text = format_cell_number(*cell.value, col.format.empty() ? ".2f" : col.format);
  } else {
    cell.text = "—";
  }
  return cell;
}

// Turns a long table (its last row parameter being the pivot) into one row per other key and one
// column group per pivot value (natural order). Missing combinations read "".
Table pivot_table(Table long_table, const std::vector<std::vector<Value>>& keys) {
  Table wide = long_table;
  wide.rows.clear();
  wide.columns.clear();
  wide.units.clear();
  wide.row_params.pop_back();
  std::vector<Value> pivots;
  for (const auto& k : keys)
    if (std::none_of(pivots.begin(), pivots.end(),
                     [&](const Value& v) { return values_equal(v, k.back()); }))
      pivots.push_back(k.back());
  std::stable_sort(pivots.begin(), pivots.end());
  const size_t ncols = long_table.columns.size();
  for (const auto& pv : pivots)
    for (size_t j = 0; j < ncols; ++j) {
      wide.columns.push_back(ncols == 1 ? pv.text() : pv.text() + " " + long_table.columns[j]);
      wide.units.push_back(long_table.units[j]);
    }
  RowIndex wide_keys;
  for (size_t i = 0; i < long_table.rows.size(); ++i) {
    const std::vector<Value> key(keys[i].begin(), keys[i].end() - 1);
    size_t w = wide_keys.find(key);
    if (w == RowIndex::npos) {
      w = wide.rows.size();
      wide_keys.add(key, w);
      Table::Row row;
      for (const auto& v : key) row.key.push_back(v.text());
      TableCell blank;
      row.cells.assign(pivots.size() * ncols, blank);
      wide.rows.push_back(std::move(row));
    }
    const size_t p = static_cast<size_t>(
        std::find_if(pivots.begin(), pivots.end(),
                     [&](const Value& v) { return values_equal(v, keys[i].back()); }) -
        pivots.begin());
    for (size_t j = 0; j < ncols; ++j)
      wide.rows[w].cells[p * ncols + j] = long_table.rows[i].cells[j];
  }
  return wide;
}

// The column a reference names: a measured column by its source, any column (a speedup column
// in particular, whose source is the metric it compares) by its label.
size_t reference_column(const TableSpec& t, const Reference& ref) {
  for (size_t j = 0; j < t.columns.size(); ++j)
    if (t.columns[j].speedup_of.empty() && t.columns[j].source == ref.column) return j;
  for (size_t j = 0; j < t.columns.size(); ++j)
    if (label_of(t.columns[j]) == ref.column) return j;
  std::vector<std::string> labels;
  for (const auto& col : t.columns) labels.push_back(label_of(col));
  throw InputError(ref.loc, fmt::format("tables.{}.reference", t.name),
                   fmt::format("'{}' is not a column of table '{}' (columns: {})", ref.column,
                               t.name, fmt::join(labels, ", ")));
}

}  // namespace

Table build_table(const CaseSpec& c, const TableSpec& t, const std::vector<RunRecord>& runs,
                  const std::vector<PlannedRuns>& plan) {
  validate_columns(t);

  std::vector<const RunRecord*> selected;
  for (const auto& r : runs)
    if (run_selected(r, c, t)) selected.push_back(&r);
  // Derived metrics are computed on copies of the runs, then read like any metric.
  std::vector<RunRecord> derived;
  std::vector<std::string> params_only;  // derived metrics of parameters alone
  if (!t.derive.empty()) {
    const report_detail::RunFormulas formulas(t, formula_names(c, selected));
    params_only = formulas.parameter_only([&](const std::string& name) {
      return std::any_of(selected.begin(), selected.end(), [&](const RunRecord* r) {
        return find_param(r->params, name) != nullptr;
      });
    });
    derived.reserve(selected.size());
    for (const RunRecord* r : selected) {
      derived.push_back(*r);
      formulas.apply(derived.back());
    }
    for (size_t i = 0; i < selected.size(); ++i) selected[i] = &derived[i];
  }
  std::vector<std::string> keys = t.rows;  // a pivot table is built long, then pivoted
  if (!t.pivot.empty()) keys.push_back(t.pivot);
  std::stable_sort(selected.begin(), selected.end(), [](const RunRecord* a, const RunRecord* b) {
    return std::tie(a->repeat_index, a->attempt, a->id) <
           std::tie(b->repeat_index, b->attempt, b->id);
  });

  std::vector<RowAcc> rows;
  RowIndex index;
  // The row of a point (its values of the row parameters), added when new.
  std::vector<Value> key;
  auto row_of = [&](const ParamList& params) {
    key.clear();
    for (const auto& p : keys) {
      const Value* v = find_param(params, p);
      key.push_back(v ? *v : Value());
    }
    size_t i = index.find(key);
    if (i == RowIndex::npos) {
      i = rows.size();
      index.add(key, i);
      rows.push_back({key, {}});
    }
    return i;
  };
  for (const RunRecord* r : selected) rows[row_of(r->params)].runs.push_back(r);
  // Planned points: a row no stored run has yet reads "missing"; each row counts its runs due.
  for (const PlannedRuns& pr : plan)
    for (const ParamList& point : pr.points)
      if (point_selected(pr.case_name, point, c, t)) rows[row_of(point)].planned += pr.repeat;
  for (const auto& ref : t.references) {
    auto ref_key = reference_key(ref, keys);
    if (ref_key && index.find(*ref_key) == RowIndex::npos) {
      index.add(*ref_key, rows.size());
      rows.push_back({std::move(*ref_key), {}});
    }
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const RowAcc& a, const RowAcc& b) { return key_less(a.key, b.key); });
  index = RowIndex();  // the rows moved: index them again, in their order
  for (size_t i = 0; i < rows.size(); ++i) index.add(rows[i].key, i);

  Table table;
  table.name = t.name;
  table.title = t.title;
  table.case_name = c.name;
  table.paper = c.paper;
  table.figure = c.figure;
  table.row_params = keys;
  table.tolerance = t.tolerance;
  std::vector<Source> kinds;
  for (const auto& col : t.columns) {
    table.columns.push_back(label_of(col));
    kinds.push_back(resolve_source(c, t, col, selected));
    kinds.back().params_only =
        std::find(params_only.begin(), params_only.end(), col.source) != params_only.end();
    validate_column_source(t, col, kinds.back());
    std::string unit = col.unit;
    for (const auto& d : t.derive)
      if (unit.empty() && col.speedup_of.empty() && d.name == col.source) unit = d.unit;
    if (unit.empty() && kinds.back().instant() && col.agg != "n") unit = kinds.back().zone;
    table.units.push_back(unit);
  }

  for (const auto& acc : rows) {
    Table::Row row;
    for (const auto& v : acc.key) row.key.push_back(v.text());
    for (size_t j = 0; j < t.columns.size(); ++j) {
      row.cells.push_back(kinds[j].kind == SourceKind::Param
                              ? param_cell(acc, keys, t.columns[j])
                              : measured_cell(acc.runs, kinds[j], t.columns[j]));
      if (kinds[j].kind != SourceKind::Param || t.columns[j].agg == "largest_ok")
        row.cells.back().planned = acc.planned;
    }
    table.rows.push_back(std::move(row));
  }
  // Speedup columns: the cells above hold this row's aggregate; compare with the other row's.
  for (size_t j = 0; j < t.columns.size(); ++j) {
    const ColumnSpec& col = t.columns[j];
    if (col.speedup_of.empty()) continue;
    std::vector<TableCell> base;
    for (const auto& row : table.rows) base.push_back(row.cells[j]);
    for (size_t i = 0; i < rows.size(); ++i) {
      std::vector<Value> other_key = rows[i].key;
      for (const auto& [name, value] : col.speedup_of)
        other_key[std::find(keys.begin(), keys.end(), name) - keys.begin()] = value;
      const size_t other = index.find(other_key);
      const TableCell* other_cell = other == RowIndex::npos ? nullptr : &base[other];
      table.rows[i].cells[j] =
          speedup_cell(base[i], other_cell, key_equal(other_key, rows[i].key), col);
    }
  }

  for (const auto& ref : t.references) {
    const size_t j = reference_column(t, ref);
    if (kinds[j].instant())
      throw InputError(ref.loc, fmt::format("tables.{}.reference", t.name),
                       fmt::format("'{}' is a calendar time; a reference gives the paper's number "
                                   "for a measured, derived or speedup column",
                                   ref.column));
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!reference_selects(ref, rows[i], keys)) continue;
      TableCell& cell = table.rows[i].cells[j];
      cell.paper = ref.value;
      cell.ratio.reset();
      cell.pass.reset();
      if (cell.value && ref.value != 0) {
        cell.ratio = *cell.value / ref.value;
        cell.pass = std::fabs(*cell.ratio - 1) <= t.tolerance + kPassEpsilon;
      }
    }
  }
  if (t.pivot.empty()) return table;
  std::vector<std::vector<Value>> row_keys;
  for (const auto& acc : rows) row_keys.push_back(acc.key);
  return pivot_table(std::move(table), row_keys);
}

}  // namespace aerun
