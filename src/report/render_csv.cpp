#include <fmt/format.h>

#include "aerun/report/table.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

// Full precision for machines: the shortest text that reads back as the same double.
std::string csv_number(std::optional<double> v) {
  return v ? fmt::format("{}", *v) : "";
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_field(fields[i]);
  }
  return line + "\n";
}

}  // namespace

std::string render_csv(const Table& t) {
  // A column gets _min/_max/_n when some cell aggregated values, _paper/_ratio/_pass when some
  // cell has a paper value.
  // _planned when some cell has fewer runs than its case plans.
  std::vector<bool> has_stats(t.columns.size(), false), has_paper(t.columns.size(), false),
      has_plan(t.columns.size(), false);
  for (const auto& row : t.rows)
    for (size_t j = 0; j < row.cells.size() && j < t.columns.size(); ++j) {
      if (row.cells[j].n > 0 && !row.cells[j].count) has_stats[j] = true;
      if (row.cells[j].paper) has_paper[j] = true;
      if (short_of_plan(row.cells[j])) has_plan[j] = true;
    }

  std::vector<std::string> header = t.row_params;
  for (size_t j = 0; j < t.columns.size(); ++j) {
    const std::string& l = t.columns[j];
    header.push_back(l);
    if (has_stats[j]) header.insert(header.end(), {l + "_min", l + "_max", l + "_n"});
    if (has_plan[j]) header.push_back(l + "_planned");
    if (has_paper[j]) header.insert(header.end(), {l + "_paper", l + "_ratio", l + "_pass"});
  }
  std::string out = csv_line(header);

  for (const auto& row : t.rows) {
    std::vector<std::string> fields = row.key;
    for (size_t j = 0; j < t.columns.size(); ++j) {
      const TableCell empty;
      const TableCell& c = j < row.cells.size() ? row.cells[j] : empty;
      // A calendar time in ISO 8601; another aggregate at full precision; else the status.
      // Full precision for every number (aggregates, speedups, numeric parameters); a status
      // (OOM, missing) as its word; nothing where there is no value (the row compared with itself).
      fields.push_back(c.instant       ? c.instant->iso
                       : c.value       ? csv_number(c.value)
                       : c.status      ? c.text
                       : c.text == "—" ? std::string()
                                       : c.text);
      if (has_stats[j]) {
        if (c.instant)
          fields.insert(fields.end(),
                        {c.instant->iso_min, c.instant->iso_max, std::to_string(c.n)});
        else if (c.n > 0 && !c.count)
          fields.insert(fields.end(), {csv_number(c.min), csv_number(c.max), std::to_string(c.n)});
        else
          fields.insert(fields.end(), {"", "", ""});
      }
      if (has_plan[j]) fields.push_back(c.planned > 0 ? std::to_string(c.planned) : "");
      if (has_paper[j])
        fields.insert(fields.end(), {csv_number(c.paper), csv_number(c.ratio),
                                     c.pass ? (*c.pass ? "true" : "false") : ""});
    }
    out += csv_line(fields);
  }
  return out;
}

}  // namespace aerun
