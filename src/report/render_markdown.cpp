#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aerun/report/table.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

// Min/max of a spread, shorter than the value itself: 3 significant digits.
std::string compact_number(double v) {
  if (std::isfinite(v) && std::fabs(v) >= 1e3 && std::fabs(v) < 1e15)
    return fmt::format("{:.0f}", v);
  return format_number(v, ".3g");
}

// "12.31 (11.9–12.8, n=3)" when several values were aggregated, "12.3 (n=1/3)" when fewer runs
// than planned gave a value, else the text alone.
std::string measured_text(const TableCell& cell) {
  if (cell.count)
    return short_of_plan(cell) ? fmt::format("{} of {}", cell.text, cell.planned) : cell.text;
  if (cell.n == 0 || (cell.n == 1 && !short_of_plan(cell))) return cell.text;
  const std::string n = runs_count_text(cell);
  if (cell.min == cell.max) return fmt::format("{} ({})", cell.text, n);
  if (cell.instant)
    return fmt::format("{} ({}–{}, {})", cell.text, cell.instant->min_text, cell.instant->max_text,
                       n);
  return fmt::format("{} ({}–{}, {})", cell.text, compact_number(cell.min),
                     compact_number(cell.max), n);
}

std::string ratio_text(const TableCell& cell) {
  if (!cell.paper) return "";
  if (!cell.ratio) return "—";
  return fmt::format("{:.2f} {}", *cell.ratio, cell.pass.value_or(false) ? "✓" : "✗");
}

std::string md_row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const auto& c : cells) {
    line += ' ';
    line += md_cell(c);
    line += " |";
  }
  return line + "\n";
}

}  // namespace

std::string render_markdown(const Table& t) {
  std::string out;
  const std::string& title = t.title.empty() ? t.name : t.title;
  std::vector<std::string> source;
  if (!t.figure.empty()) source.push_back(t.figure);
  if (!t.paper.empty()) source.push_back(t.paper);
  // The heading is one line whatever the case (or a merged store) says: md_cell folds newlines.
  out += "### " + md_cell(title);
  if (!source.empty()) {
    for (auto& x : source) x = md_cell(x);
    out += fmt::format(" ({})", fmt::join(source, ", "));
  }
  out += "\n\n";

  // Which columns have a paper value somewhere get "paper" and "ratio" columns after them.
  std::vector<bool> referenced(t.columns.size(), false);
  for (const auto& row : t.rows)
    for (size_t j = 0; j < row.cells.size() && j < t.columns.size(); ++j)
      if (row.cells[j].paper) referenced[j] = true;

  std::vector<std::string> header = t.row_params;
  std::vector<std::string> rule(t.row_params.size(), ":---");
  for (size_t j = 0; j < t.columns.size(); ++j) {
    header.push_back(header_text(t, j));
    rule.push_back("---:");
    if (referenced[j]) {
      header.insert(header.end(), {"paper", "ratio"});
      rule.insert(rule.end(), {"---:", "---:"});
    }
  }
  out += md_row(header);
  out += "|" + fmt::format("{}", fmt::join(rule, "|")) + "|\n";

  int compared = 0, passed = 0;
  for (const auto& row : t.rows) {
    std::vector<std::string> cells = row.key;
    for (size_t j = 0; j < t.columns.size(); ++j) {
      const TableCell empty;
      const TableCell& cell = j < row.cells.size() ? row.cells[j] : empty;
      cells.push_back(measured_text(cell));
      if (!referenced[j]) continue;
      cells.push_back(cell.paper ? fmt::format("{}", *cell.paper) : "");  // as written
      cells.push_back(ratio_text(cell));
      if (cell.pass) {
        ++compared;
        if (*cell.pass) ++passed;
      }
    }
    out += md_row(cells);
  }
  if (t.rows.empty()) out += "\n(no runs)\n";

  if (std::find(referenced.begin(), referenced.end(), true) != referenced.end()) {
    out += fmt::format(
        "\nratio = measured / paper; ✓ within ±{:g}% of the paper value (tolerance {:g}), ✗ "
        "outside. {} of {} compared cells pass.\n",
        t.tolerance * 100, t.tolerance, passed, compared);
  }
  return out;
}

}  // namespace aerun
