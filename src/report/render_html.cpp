// A table as one self-contained HTML page: inline CSS, failed cells styled, pass/fail marks.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aerun/report/table.hpp"
#include "aerun/util/shown_text.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

std::string html(const std::string& s) {
  return html_escape(shown_text(s));
}

const char* const kStyle = R"(body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
caption{caption-side:top;text-align:left;font-weight:600;padding-bottom:.5em}
th,td{padding:.3em .8em;border-bottom:1px solid #ddd}
thead th{border-top:2px solid #222;border-bottom:1px solid #222}
tbody tr:last-child td{border-bottom:2px solid #222}
td.num{text-align:right}td.key{text-align:left}
td.status{color:#a40000;background:#fdecea;font-style:italic;text-align:center}
td.missing{color:#888;font-style:italic;text-align:center}
td.pass{color:#1a7f37}td.fail{color:#a40000;font-weight:600}
td.paper{color:#555}.spread{color:#888;font-size:.85em}
p.legend{color:#555;font-size:.9em})";

// A measured cell: number (with the spread over repeats as a tooltip and small text), or a
// status styled as a failure, or "missing".
std::string measured(const TableCell& c) {
  if (c.value && c.count)
    return fmt::format("<td class=\"num\">{}{}</td>", html(c.text),
                       short_of_plan(c) ? fmt::format(" of {}", c.planned) : "");
  if (c.value) {
    std::string extra;
    const std::string n = runs_count_text(c);
    if (c.n > 1 && c.min == c.max)
      extra = fmt::format(" <span class=\"spread\">({})</span>", n);
    else if (c.n > 1 && c.instant)
      extra = fmt::format(" <span class=\"spread\">({}–{}, {})</span>", html(c.instant->min_text),
                          html(c.instant->max_text), n);
    else if (c.n > 1)
      extra = fmt::format(" <span class=\"spread\">({}–{}, {})</span>", format_number(c.min, ".3g"),
                          format_number(c.max, ".3g"), n);
    else if (short_of_plan(c))
      extra = fmt::format(" <span class=\"spread\">({})</span>", n);
    return fmt::format("<td class=\"num\">{}{}</td>", html(c.text), extra);
  }
  if (c.text.empty() || c.text == "—") return "<td class=\"num\">" + html(c.text) + "</td>";
  if (!c.status) return "<td>" + html(c.text) + "</td>";  // a text parameter ("Y")
  const char* cls = c.text == "missing" ? "missing" : "status";
  return fmt::format("<td class=\"{}\">{}</td>", cls, html(c.text));
}

}  // namespace

std::string html_table_style() {
  return kStyle;
}

std::string render_html_table(const Table& t) {
  std::vector<bool> referenced(t.columns.size(), false);
  for (const auto& row : t.rows)
    for (size_t j = 0; j < row.cells.size() && j < t.columns.size(); ++j)
      if (row.cells[j].paper) referenced[j] = true;

  const std::string title = t.title.empty() ? t.name : t.title;
  std::vector<std::string> source;
  if (!t.figure.empty()) source.push_back(t.figure);
  if (!t.paper.empty()) source.push_back(t.paper);
  std::string caption = html(title);
  if (!source.empty()) caption += html(fmt::format(" ({})", fmt::join(source, ", ")));

  std::string out = "<table>\n<caption>" + caption + "</caption>\n<thead><tr>";
  for (const auto& p : t.row_params) out += "<th>" + html(p) + "</th>";
  for (size_t j = 0; j < t.columns.size(); ++j) {
    out += "<th>" + html(header_text(t, j)) + "</th>";
    if (referenced[j]) out += "<th>paper</th><th>ratio</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  int compared = 0, passed = 0;
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (const auto& k : row.key) out += "<td class=\"key\">" + html(k) + "</td>";
    for (size_t j = 0; j < t.columns.size(); ++j) {
      const TableCell empty;
      const TableCell& c = j < row.cells.size() ? row.cells[j] : empty;
      out += measured(c);
      if (!referenced[j]) continue;
      out += "<td class=\"num paper\">" + (c.paper ? fmt::format("{}", *c.paper) : std::string()) +
             "</td>";
      if (!c.paper) {
        out += "<td></td>";
      } else if (!c.ratio) {
        out += "<td class=\"missing\">—</td>";
      } else {
        const bool ok = c.pass.value_or(false);
        ++compared;
        passed += ok ? 1 : 0;
        out += fmt::format("<td class=\"num {}\">{:.2f} {}</td>", ok ? "pass" : "fail", *c.ratio,
                           ok ? "✓" : "✗");
      }
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table>\n";
  if (std::find(referenced.begin(), referenced.end(), true) != referenced.end())
    out += fmt::format(
        "<p class=\"legend\">ratio = measured / paper; ✓ within ±{:g}% of the paper value, ✗ "
        "outside. {} of {} compared cells pass.</p>\n",
        t.tolerance * 100, passed, compared);
  return out;
}

std::string render_html(const Table& t) {
  const std::string title = t.title.empty() ? t.name : t.title;
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>" + html(t.name + ": " + title) + "</title>\n";
  out += std::string("<style>\n") + kStyle + "\n</style>\n</head>\n<body>\n";
  out += render_html_table(t);
  out += fmt::format("<p class=\"legend\">aerun table {} --format html (case {})</p>\n",
                     html(t.name), html(t.case_name));
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace aerun
