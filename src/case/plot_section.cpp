// The figures of a case file (`plots:`): each one a view of one of the case's tables.
#include <algorithm>

#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

const TableSpec* table_named(const CaseSpec& spec, const std::string& name) {
  for (const auto& t : spec.tables)
    if (t.name == name) return &t;
  return nullptr;
}

// A row parameter of the table (x and series).
std::string read_row_param(const YamlReader& r, const Item& e, const TableSpec& t) {
  const std::string p = r.text(e);
  std::vector<std::string> keys = t.rows;  // a pivot table's pivot is a key too
  if (!t.pivot.empty()) keys.push_back(t.pivot);
  if (!contains(keys, p))
    throw InputError(e.loc, e.key,
                     "'" + p + "' is not a row parameter of table '" + t.name +
                         "' (rows: " + joined(keys) + ")" + did_you_mean(p, keys));
  return p;
}

PlotSpec read_plot(const YamlReader& r, const Item& it, const CaseSpec& spec) {
  if (!is_name(it.name))
    throw InputError(it.key_loc, it.key,
                     "plot names are made of [A-Za-z0-9_.-], not '" + it.name + "'");
  PlotSpec p;
  p.name = it.name;
  p.loc = it.key_loc;
  const std::vector<Item> entries = r.entries(it, {"title", "table", "kind", "x", "y", "series",
                                                   "fit", "paper", "xlabel", "ylabel", "logy"});
  const auto table_item =
      std::find_if(entries.begin(), entries.end(), [](const Item& e) { return e.name == "table"; });
  if (table_item == entries.end())
    throw InputError(it.loc, it.key, "missing required key 'table' (the table to draw)");
  std::vector<std::string> tables;
  for (const auto& t : spec.tables) tables.push_back(t.name);
  p.table = r.text(*table_item);
  const TableSpec* t = table_named(spec, p.table);
  if (!t)
    throw InputError(table_item->loc, table_item->key,
                     "no table '" + p.table + "' in this case (tables: " + joined(tables) + ")" +
                         did_you_mean(p.table, tables));
  bool has_x = false, has_y = false;
  for (const Item& e : entries) {
    if (e.name == "title") {
      p.title = r.text(e);
    } else if (e.name == "kind") {
      p.kind = r.text(e);
      if (p.kind != "line" && p.kind != "bars")
        throw InputError(e.loc, e.key, "kind is 'line' or 'bars', not '" + p.kind + "'");
    } else if (e.name == "x") {
      p.x = read_row_param(r, e, *t);
      has_x = true;
    } else if (e.name == "series") {
      p.series = read_row_param(r, e, *t);
    } else if (e.name == "y") {
      p.y = r.text(e);
      std::vector<std::string> cols;
      for (const auto& c : t->columns) {
        cols.push_back(c.source);
        cols.push_back(c.label);
      }
      if (!contains(cols, p.y))
        throw InputError(
            e.loc, e.key,
            "'" + p.y + "' is not a column of table '" + t->name + "'" + did_you_mean(p.y, cols));
      has_y = true;
    } else if (e.name == "fit") {
      const std::string f = r.text(e);
      if (f != "linear" && f != "none")
        throw InputError(e.loc, e.key, "fit is 'linear' or 'none', not '" + f + "'");
      p.fit_linear = f == "linear";
    } else if (e.name == "paper") {
      p.paper = r.boolean(e);
    } else if (e.name == "xlabel") {
      p.xlabel = r.text(e);
    } else if (e.name == "ylabel") {
      p.ylabel = r.text(e);
    } else if (e.name == "logy") {
      p.logy = r.boolean(e);
    }
  }
  if (!has_x) throw InputError(it.loc, it.key, "missing required key 'x' (a row parameter)");
  if (!has_y) throw InputError(it.loc, it.key, "missing required key 'y' (a column)");
  if (p.series == p.x)
    throw InputError(it.loc, it.key, "'series' and 'x' must be different row parameters");
  if (p.fit_linear && p.kind != "line")
    throw InputError(it.loc, it.key, "fit: linear needs kind: line");
  return p;
}

}  // namespace

void read_plots(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& p : r.entries(it)) spec.plots.push_back(read_plot(r, p, spec));
}

}  // namespace aerun::detail
