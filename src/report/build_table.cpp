#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "aerun/judge/run_status.hpp"
#include "aerun/record/run_times.hpp"
#include "aerun/report/table.hpp"
#include "aerun/util/calendar_time.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/log_time.hpp"
#include "aerun/util/secret_text.hpp"
#include "report/pivot_table.hpp"
#include "report/row_index.hpp"
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

constexpr const char* kDefaultTimeFormat = "%Y-%m-%d %H:%M:%S";

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

// Where a run stands in the table's run order: by repeat index, then attempt, then id (the
// order "first"/"last" aggregate in, and values are summed in).
struct RunOrder {
  int repeat = 0;
  int attempt = 0;
  long long id = 0;
  auto operator<=>(const RunOrder&) const = default;
};
constexpr RunOrder kAfterAllRuns{INT32_MAX, INT32_MAX, INT64_MAX};

// Rows accumulate what their cells need of the runs that share their key (never the runs
// themselves: a table streams a million runs in bounded memory), and count the runs planned for
// them.
struct RowAcc {
  std::vector<Value> key;
  RunOrder first = kAfterAllRuns;  // its first run's (ties of equal keys keep this order)
  size_t seq = 0;                  // when it was made (rows without runs: in this order)
  int planned = 0;
  size_t runs = 0;
  bool any_ok = false;
  std::vector<std::pair<RunOrder, std::string>> statuses;  // each label at its first run
  struct Column {
    std::vector<std::pair<RunOrder, double>> values;  // measured: ok (or params-only) runs
    std::optional<Value> best;                        // largest_ok over a parameter
    std::vector<Value> distinct;                      // a parameter column's values
  };
  std::vector<Column> cols;
  std::vector<std::vector<char>> ref_hits;  // per reference, per match entry: a run has it
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

// The parameter and metric names of the runs a table is built from (their series count as
// metrics), known before the runs stream by.
struct RunNames {
  std::vector<std::string> params, metrics;
  bool param(const std::string& n) const {
    return std::find(params.begin(), params.end(), n) != params.end();
  }
  bool metric(const std::string& n) const {
    return std::find(metrics.begin(), metrics.end(), n) != metrics.end();
  }
};

// A metric or parameter of the case hides a run time of the same name (docs/tables.md).
SourceKind source_kind(const CaseSpec& c, const std::string& source, const RunNames& names) {
  auto named = [&](const auto& m) { return m.name == source; };
  if (std::any_of(c.metrics.begin(), c.metrics.end(), named)) return SourceKind::Metric;
  if (case_declares_param(c, source)) return SourceKind::Param;
  if (find_run_time(source)) return SourceKind::RunTime;
  if (names.metric(source)) return SourceKind::Metric;
  if (names.param(source)) return SourceKind::Param;
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

// The middle value (the mean of the two middle ones for an even count): two selections, not a sort.
double median_of(std::vector<double> v) {
  const size_t n = v.size();
  const auto mid = v.begin() + static_cast<long>(n / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (n % 2 == 1) return *mid;
  return (*std::max_element(v.begin(), mid) + *mid) / 2;
}

// Whether an aggregation's value depends on the order of its values (first, last, and the sums'
// rounding): only then are a cell's values put in run order.
bool depends_on_order(Aggregation agg) {
  return agg == Aggregation::Mean || agg == Aggregation::Sum || agg == Aggregation::Stdev ||
         agg == Aggregation::First || agg == Aggregation::Last;
}

// `values` are in run order (repeat index, attempt, id) when depends_on_order(agg); never empty.
double aggregate(const std::vector<double>& values, Aggregation agg) {
  const double n = static_cast<double>(values.size());
  const double sum = std::accumulate(values.begin(), values.end(), 0.0);
  switch (agg) {
    case Aggregation::Median:
      return median_of(values);
    case Aggregation::Mean:
      return sum / n;
    case Aggregation::Min:
      return *std::min_element(values.begin(), values.end());
    case Aggregation::Max:
    case Aggregation::LargestOk:
      return *std::max_element(values.begin(), values.end());
    case Aggregation::First:
      return values.front();
    case Aggregation::Last:
      return values.back();
    case Aggregation::N:
      return n;
    case Aggregation::Sum:
      return sum;
    case Aggregation::Stdev:
      break;
  }
  // stdev: the sample standard deviation (0 for a single value).
  if (values.size() < 2) return 0;
  const double mean = sum / n;
  double sq = 0;
  for (double x : values) sq += (x - mean) * (x - mean);
  return std::sqrt(sq / (n - 1));
}

std::string status_label(const std::string& status) {
  if (status == run_status::oom) return "OOM";
  if (status == run_status::failed) return "fail";
  return status;
}

// The statuses of a row's runs, e.g. "OOM" or "OOM/fail", in the order of their first runs.
std::string statuses_text(std::vector<std::pair<RunOrder, std::string>> labels) {
  std::stable_sort(labels.begin(), labels.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> texts;
  for (auto& [order, l] : labels) texts.push_back(std::move(l));
  return fmt::format("{}", fmt::join(texts, "/"));
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
TableCell measured_cell(const RowAcc& row, size_t j, const Source& src, const ColumnSpec& col) {
  TableCell cell;
  auto entries = row.cols[j].values;
  if (depends_on_order(col.agg))  // every run has its own place: no two entries tie
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<double> values;
  values.reserve(entries.size());
  for (const auto& e : entries) values.push_back(e.second);
  if (!values.empty()) {
    const Aggregation agg = col.agg;
    cell.value = aggregate(values, agg);
    cell.min = *std::min_element(values.begin(), values.end());
    cell.max = *std::max_element(values.begin(), values.end());
    cell.n = static_cast<int>(values.size());
    if (agg == Aggregation::N) {
      cell.text = fmt::format("{}", cell.n);
      cell.count = true;
      cell.min = cell.max = *cell.value;
    } else if (!src.instant())
      cell.text = format_cell_number(*cell.value, col.format);
    else
      fill_instant(cell, src, col);
    return cell;
  }
  if (row.runs == 0 || row.any_ok) {
    cell.text = "missing";
    cell.status = true;
    return cell;
  }
  cell.text = statuses_text(row.statuses);
  cell.status = true;
  return cell;
}

// largest_ok over a parameter: the largest value among the row's ok runs (e.g. the most layers
// that trained before running out of memory), else the failed runs' statuses.
TableCell largest_ok_param_cell(const RowAcc& row, size_t j, const ColumnSpec& col) {
  TableCell cell;
  if (const auto& best = row.cols[j].best) {
    cell.value = best->number();
    cell.text = cell.value && !col.format.empty() ? format_cell_number(*cell.value, col.format)
                                                  : best->text();
    return cell;
  }
  cell.text = row.runs == 0 ? "missing" : statuses_text(row.statuses);
  if (cell.text.empty()) cell.text = "missing";
  cell.status = true;
  return cell;
}

// The cell of a parameter column: its value, or its distinct values joined with "/".
TableCell param_cell(const RowAcc& row, size_t j, const std::vector<std::string>& row_params,
                     const ColumnSpec& col) {
  if (col.agg == Aggregation::LargestOk) return largest_ok_param_cell(row, j, col);
  TableCell cell;
  std::vector<Value> values;
  const auto pos = std::find(row_params.begin(), row_params.end(), col.source);
  if (pos != row_params.end()) {
    values.push_back(row.key[pos - row_params.begin()]);
  } else {
    values = row.cols[j].distinct;
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
// parameters are those of at least one of the row's runs (hits: recorded as the runs came).
bool reference_selects(const Reference& ref, const std::vector<char>& hits, const RowAcc& row,
                       const std::vector<std::string>& row_params) {
  for (size_t m = 0; m < ref.match.size(); ++m) {
    const auto& [name, value] = ref.match[m];
    const auto pos = std::find(row_params.begin(), row_params.end(), name);
    if (pos != row_params.end()) {
      if (!values_equal(row.key[pos - row_params.begin()], value)) return false;
    } else if (row.runs > 0 && !hits[m]) {
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
  if (!applies_to_instants(col.agg))
    throw InputError(
        t.loc, column_key(t, col, "agg"),
        fmt::format("'{}' is a calendar time: aggregate it with {} (a {} of "
                    "instants is no instant of any run)",
                    col.source, fmt::join(aggregation_names(true), ", "), to_string(col.agg)));
  if (auto problem = calendar_format_problem(col.format))
    throw InputError(t.loc, column_key(t, col, "format"),
                     fmt::format("invalid time format '{}': {}", col.format, *problem));
  if (!col.speedup_of.empty())
    throw InputError(
        t.loc, column_key(t, col, "speedup"),
        fmt::format("'{}' is a calendar time; a speedup compares durations or rates", col.source));
}

// What a column shows, resolved against the case and its runs.
Source resolve_source(const CaseSpec& c, const TableSpec& t, const ColumnSpec& col,
                      const RunNames& names) {
  Source src;
  const bool is_derived = std::any_of(t.derive.begin(), t.derive.end(),
                                      [&](const TableDerive& d) { return d.name == col.source; });
  src.kind = is_derived ? SourceKind::Metric : source_kind(c, col.source, names);
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
std::vector<std::string> formula_names(const CaseSpec& c, const RunNames& run_names) {
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
  for (const auto& n : run_names.params) add(n);
  for (const auto& n : run_names.metrics) add(n);
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

// What a table keeps while runs stream by: its rows' accumulators, the columns' sources.
struct TableBuilder::Impl {
  const CaseSpec& c;
  const TableSpec& t;
  RunNames names;
  std::unique_ptr<report_detail::RunFormulas> formulas;
  std::vector<std::string> keys;  // row parameters (a pivot table is built long, then pivoted)
  std::vector<Source> kinds;
  std::vector<RowAcc> rows;
  RowIndex index;
  std::vector<Value> key;       // scratch
  std::vector<Value> last_key;  // the key row_of() found last, and its row
  size_t last_row = RowIndex::npos;

  Impl(const CaseSpec& c_, const TableSpec& t_, RunNames n) : c(c_), t(t_), names(std::move(n)) {
    std::vector<std::string> params_only;  // derived metrics of parameters alone
    if (!t.derive.empty()) {
      formulas = std::make_unique<report_detail::RunFormulas>(t, formula_names(c, names));
      params_only =
          formulas->parameter_only([&](const std::string& name) { return names.param(name); });
    }
    keys = t.rows;
    if (!t.pivot.empty()) keys.push_back(t.pivot);
    for (const auto& col : t.columns) {
      kinds.push_back(resolve_source(c, t, col, names));
      kinds.back().params_only =
          std::find(params_only.begin(), params_only.end(), col.source) != params_only.end();
      validate_column_source(t, col, kinds.back());
    }
  }

  // The row of a point (its values of the row parameters), made when new.
  // Runs of one row often come one after another (the repeats of a point): the key found last is
  // tried first, value by value, before it is hashed.
  size_t row_of(const ParamList& params) {
    key.clear();
    for (const auto& p : keys) {
      const Value* v = find_param(params, p);
      key.push_back(v ? *v : Value());
    }
    const auto same = [](const Value& a, const Value& b) {
      return a.kind() == b.kind() && a.text() == b.text();
    };
    if (last_row != RowIndex::npos &&
        std::equal(key.begin(), key.end(), last_key.begin(), last_key.end(), same))
      return last_row;
    size_t i = index.find(key);
    if (i == RowIndex::npos) i = new_row(key);
    last_key = key;
    last_row = i;
    return i;
  }

  size_t new_row(const std::vector<Value>& k) {
    const size_t i = rows.size();
    index.add(k, i);
    RowAcc row;
    row.key = k;
    row.seq = i;
    row.cols.resize(t.columns.size());
    for (const auto& ref : t.references) row.ref_hits.emplace_back(ref.match.size(), 0);
    rows.push_back(std::move(row));
    return i;
  }

  void add(const RunRecord& in) {
    if (!run_selected(in, c, t)) return;
    // Derived metrics are computed on a copy of the run, then read like any metric.
    std::optional<RunRecord> derived;
    if (formulas) {
      derived = in;
      formulas->apply(*derived);
    }
    const RunRecord& r = derived ? *derived : in;
    const RunOrder order{r.repeat_index, r.attempt, r.id};
    RowAcc& row = rows[row_of(r.params)];
    if (order < row.first) {
      row.first = order;
      row.key = key;  // shown as its first run wrote it
    }
    ++row.runs;
    const bool ok = r.status == run_status::ok;
    row.any_ok = row.any_ok || ok;
    std::string label = status_label(r.status);
    auto st = std::find_if(row.statuses.begin(), row.statuses.end(),
                           [&](const auto& e) { return e.second == label; });
    if (st == row.statuses.end())
      row.statuses.emplace_back(order, std::move(label));
    else if (order < st->first)
      st->first = order;
    for (size_t j = 0; j < t.columns.size(); ++j) {
      const ColumnSpec& col = t.columns[j];
      RowAcc::Column& acc = row.cols[j];
      if (kinds[j].kind == SourceKind::Param) {
        const Value* v = find_param(r.params, col.source);
        if (!v) continue;
        if (col.agg == Aggregation::LargestOk) {
          if (ok && (!acc.best || *acc.best < *v)) acc.best = *v;
        } else if (std::find(keys.begin(), keys.end(), col.source) == keys.end() &&
                   std::none_of(acc.distinct.begin(), acc.distinct.end(),
                                [&](const Value& x) { return values_equal(x, *v); })) {
          acc.distinct.push_back(*v);
        }
        continue;
      }
      if (!ok && !kinds[j].params_only) continue;
      if (auto v = run_value(r, kinds[j], col.source)) acc.values.emplace_back(order, *v);
    }
    for (size_t i = 0; i < t.references.size(); ++i) {
      const Reference& ref = t.references[i];
      for (size_t m = 0; m < ref.match.size(); ++m) {
        if (row.ref_hits[i][m]) continue;
        const Value* v = find_param(r.params, ref.match[m].first);
        if (v && values_equal(*v, ref.match[m].second)) row.ref_hits[i][m] = 1;
      }
    }
  }

  void merge(Impl&& later) {
    for (RowAcc& theirs : later.rows) {
      size_t i = index.find(theirs.key);
      if (i == RowIndex::npos) i = new_row(theirs.key);
      RowAcc& mine = rows[i];
      if (theirs.first < mine.first) {
        mine.first = theirs.first;
        mine.key = std::move(theirs.key);  // shown as its first run wrote it
      }
      mine.runs += theirs.runs;
      mine.any_ok = mine.any_ok || theirs.any_ok;
      for (auto& theirs_status : theirs.statuses) {
        const std::string& label = theirs_status.second;
        auto st = std::find_if(mine.statuses.begin(), mine.statuses.end(),
                               [&](const auto& e) { return e.second == label; });
        if (st == mine.statuses.end())
          mine.statuses.push_back(std::move(theirs_status));
        else if (theirs_status.first < st->first)
          st->first = theirs_status.first;
      }
      for (size_t j = 0; j < mine.cols.size(); ++j) {
        RowAcc::Column& a = mine.cols[j];
        RowAcc::Column& b = theirs.cols[j];
        a.values.insert(a.values.end(), b.values.begin(), b.values.end());
        if (b.best && (!a.best || *a.best < *b.best)) a.best = std::move(b.best);
        for (Value& v : b.distinct)
          if (std::none_of(a.distinct.begin(), a.distinct.end(),
                           [&](const Value& x) { return values_equal(x, v); }))
            a.distinct.push_back(std::move(v));
      }
      for (size_t r = 0; r < mine.ref_hits.size(); ++r)
        for (size_t m = 0; m < mine.ref_hits[r].size(); ++m)
          mine.ref_hits[r][m] = static_cast<char>(mine.ref_hits[r][m] || theirs.ref_hits[r][m]);
    }
    later.rows.clear();
    later.index = RowIndex();
  }

  Table finish(const std::vector<PlannedRuns>& plan) {
    // Planned points: a row no stored run has yet reads "missing"; each row counts its runs due.
    // A table by system (docs/systems.md) plans each point on every system its runs came from
    // (`local` when none has come yet).
    std::vector<Value> systems;
    if (const auto s = std::find(keys.begin(), keys.end(), "system"); s != keys.end()) {
      const size_t k = static_cast<size_t>(s - keys.begin());
      for (const RowAcc& row : rows)
        if (k < row.key.size() && !row.key[k].text().empty() &&
            std::none_of(systems.begin(), systems.end(),
                         [&](const Value& v) { return v.text() == row.key[k].text(); }))
          systems.push_back(row.key[k]);
      if (systems.empty()) systems.push_back(Value::of_string("local"));
    }
    for (const PlannedRuns& pr : plan)
      for (const ParamList& point : pr.points) {
        if (!point_selected(pr.case_name, point, c, t)) continue;
        if (systems.empty() || find_param(point, "system")) {
          rows[row_of(point)].planned += pr.repeat;
          continue;
        }
        for (const Value& system : systems) {
          ParamList on = point;
          on.emplace_back("system", system);
          rows[row_of(on)].planned += pr.repeat;
        }
      }
    for (const auto& ref : t.references) {
      auto ref_key = reference_key(ref, keys);
      if (ref_key && index.find(*ref_key) == RowIndex::npos) new_row(*ref_key);
    }
    // By key; rows of equal keys ("64" and "64.0") in the order of their first runs.
    last_row = RowIndex::npos;
    std::sort(rows.begin(), rows.end(), [](const RowAcc& a, const RowAcc& b) {
      if (key_less(a.key, b.key)) return true;
      if (key_less(b.key, a.key)) return false;
      return std::tie(a.first, a.seq) < std::tie(b.first, b.seq);
    });
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
    for (size_t j = 0; j < t.columns.size(); ++j) {
      const ColumnSpec& col = t.columns[j];
      table.columns.push_back(label_of(col));
      std::string unit = col.unit;
      for (const auto& d : t.derive)
        if (unit.empty() && col.speedup_of.empty() && d.name == col.source) unit = d.unit;
      if (unit.empty() && kinds[j].instant() && col.agg != Aggregation::N) unit = kinds[j].zone;
      table.units.push_back(unit);
    }

    for (const auto& acc : rows) {
      Table::Row row;
      for (const auto& v : acc.key) row.key.push_back(v.text());
      for (size_t j = 0; j < t.columns.size(); ++j) {
        row.cells.push_back(kinds[j].kind == SourceKind::Param
                                ? param_cell(acc, j, keys, t.columns[j])
                                : measured_cell(acc, j, kinds[j], t.columns[j]));
        if (kinds[j].kind != SourceKind::Param || t.columns[j].agg == Aggregation::LargestOk)
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

    for (size_t k = 0; k < t.references.size(); ++k) {
      const Reference& ref = t.references[k];
      const size_t j = reference_column(t, ref);
      if (kinds[j].instant())
        throw InputError(ref.loc, fmt::format("tables.{}.reference", t.name),
                         fmt::format("'{}' is a calendar time; a reference gives the paper's "
                                     "number for a measured, derived or speedup column",
                                     ref.column));
      for (size_t i = 0; i < rows.size(); ++i) {
        if (!reference_selects(ref, rows[i].ref_hits[k], rows[i], keys)) continue;
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
};

TableBuilder::TableBuilder(const CaseSpec& c, const TableSpec& t,
                           std::vector<std::string> run_params,
                           std::vector<std::string> run_metrics)
    : impl_(std::make_unique<Impl>(c, t, RunNames{std::move(run_params), std::move(run_metrics)})) {
}

TableBuilder::~TableBuilder() = default;

void TableBuilder::add(const RunRecord& r) {
  impl_->add(r);
}

void TableBuilder::merge(TableBuilder&& later) {
  impl_->merge(std::move(*later.impl_));
}

Table TableBuilder::finish(const std::vector<PlannedRuns>& plan) {
  Table out = impl_->finish(plan);
  // A row keyed by a secret-named parameter shows it redacted, as every listing does (issue 40).
  for (size_t k = 0; k < out.row_params.size(); ++k)
    if (secret_word_name(out.row_params[k]))
      for (auto& row : out.rows)
        if (k < row.key.size()) row.key[k] = shown_param(out.row_params[k], row.key[k]);
  return out;
}

Table build_table(const CaseSpec& c, const TableSpec& t, const std::vector<RunRecord>& runs,
                  const std::vector<PlannedRuns>& plan) {
  std::vector<std::string> params, metrics;
  auto add = [](std::vector<std::string>& v, const std::string& n) {
    if (std::find(v.begin(), v.end(), n) == v.end()) v.push_back(n);
  };
  for (const auto& r : runs) {
    if (!run_selected(r, c, t)) continue;
    for (const auto& [n, v] : r.params) add(params, n);
    for (const auto& m : r.metrics) add(metrics, m.name);
    for (const auto& sr : r.series) add(metrics, sr.name);
  }
  TableBuilder b(c, t, std::move(params), std::move(metrics));
  for (const auto& r : runs) b.add(r);
  return b.finish(plan);
}

}  // namespace aerun
