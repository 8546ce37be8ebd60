#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "aerun/report/plot.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

std::optional<LinearFit> fit_linear(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  if (n < 2) return std::nullopt;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0, sxy = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0) return std::nullopt;
  LinearFit f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  double ss_res = 0;
  for (size_t i = 0; i < n; ++i) {
    const double e = y[i] - (f.slope * x[i] + f.intercept);
    ss_res += e * e;
  }
  f.r2 = syy == 0 ? 1.0 : 1.0 - ss_res / syy;
  return f;
}

namespace {

const TableSpec& table_of(const CaseSpec& c, const PlotSpec& p) {
  for (const auto& t : c.tables)
    if (t.name == p.table) return t;
  throw InputError(p.loc, "plots." + p.name + ".table",
                   "no table '" + p.table + "' in case '" + c.name + "'");
}

size_t index_of(const std::vector<std::string>& v, const std::string& s, const PlotSpec& p,
                const std::string& what) {
  const auto it = std::find(v.begin(), v.end(), s);
  if (it == v.end())
    throw InputError(p.loc, "plots." + p.name + "." + what, "'" + s + "' is not in the table");
  return static_cast<size_t>(it - v.begin());
}

double as_number(const std::string& text) {
  const Value v = Value::parse(text);
  return v.is_number() ? *v.number() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

PlotData plot_data(const CaseSpec& c, const PlotSpec& p, const std::vector<RunRecord>& runs) {
  TableSpec spec = table_of(c, p);
  if (!spec.pivot.empty()) {  // one point per row: the pivot back among the rows
    spec.rows.push_back(spec.pivot);
    spec.pivot.clear();
  }
  const Table t = build_table(c, spec, runs);

  std::vector<std::string> column_names;  // source or label, by column
  size_t y = t.columns.size();
  for (size_t j = 0; j < spec.columns.size(); ++j)
    if (spec.columns[j].source == p.y || spec.columns[j].label == p.y) {
      y = j;
      break;
    }
  if (y == t.columns.size())
    throw InputError(p.loc, "plots." + p.name + ".y", "'" + p.y + "' is not a column of the table");
  const size_t xi = index_of(t.row_params, p.x, p, "x");
  std::optional<size_t> si;
  if (!p.series.empty()) si = index_of(t.row_params, p.series, p, "series");

  PlotData d;
  d.spec = p;
  d.case_name = c.name;
  d.title = !p.title.empty() ? p.title : !t.title.empty() ? t.title : p.name;
  if (!c.figure.empty()) d.title = c.figure + ": " + d.title;
  d.xlabel = p.xlabel.empty() ? p.x : p.xlabel;
  d.ylabel = p.ylabel.empty() ? header_text(t, y) : p.ylabel;
  for (const auto& row : t.rows) {
    const std::string name = si ? row.key[*si] : "";
    auto s = std::find_if(d.series.begin(), d.series.end(),
                          [&](const PlotSeries& x) { return x.name == name; });
    if (s == d.series.end()) {
      d.series.push_back(PlotSeries{name, {}, {}, {}, {}, {}, std::nullopt});
      s = std::prev(d.series.end());
    }
    const TableCell& cell = row.cells[y];
    s->x_text.push_back(row.key[xi]);
    s->x.push_back(as_number(row.key[xi]));
    s->y.push_back(cell.value);
    s->y_text.push_back(cell.text);
    s->paper.push_back(cell.paper);
    if (std::find(d.categories.begin(), d.categories.end(), row.key[xi]) == d.categories.end())
      d.categories.push_back(row.key[xi]);
  }
  // A line is drawn over numbers: a text value on x is the case's mistake, said with its place,
  // not gnuplot's "x range is invalid" on a script already removed (issue 40).
  if (p.kind == "line")
    for (const auto& s : d.series)
      for (size_t i = 0; i < s.x.size(); ++i)
        if (std::isnan(s.x[i]))
          throw InputError(p.loc, "plots." + p.name + ".x",
                           "a line plot needs numbers on x, and '" + p.x + "' has '" + s.x_text[i] +
                               "': use kind: bars, or a numeric parameter");
  if (p.fit_linear)
    for (auto& s : d.series) {
      std::vector<double> xs, ys;
      for (size_t i = 0; i < s.x.size(); ++i)
        if (s.y[i] && std::isfinite(s.x[i])) {
          xs.push_back(s.x[i]);
          ys.push_back(*s.y[i]);
        }
      s.fit = fit_linear(xs, ys);
    }
  return d;
}

}  // namespace aerun
