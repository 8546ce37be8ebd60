// A table as LaTeX for a paper: booktabs rules, escaped text, paper and ratio columns.
#include <fmt/format.h>

#include <algorithm>

#include "aerun/report/table.hpp"
#include "aerun/util/shown_text.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

// Escapes LaTeX's special characters; the dash and marks tables print become LaTeX's own.
std::string tex(const std::string& whole) {
  const std::string s = shown_text(whole);
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    switch (c) {
      case '\\':
        out += "\\textbackslash{}";
        break;
      case '&':
      case '%':
      case '$':
      case '#':
      case '_':
      case '{':
      case '}':
        out += '\\';
        out += c;
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      default:
        if (s.compare(i, 3, "—") == 0) {
          out += "--";
          i += 2;
        } else if (s.compare(i, 3, "–") == 0) {
          out += "--";
          i += 2;
        } else if (s.compare(i, 2, "²") == 0) {
          out += "\\textsuperscript{2}";
          i += 1;
        } else if (c == '\n' || c == '\r' || c == '\t') {
          out += ' ';
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          // A control byte (NUL, ESC, ...) is shown, never written raw into the paper's source.
          out += fmt::format("\\textbackslash{{}}x{:02x}", static_cast<unsigned char>(c));
        } else if (static_cast<unsigned char>(c) >= 0x80) {
          const size_t len = valid_utf8_at(s, i);
          if (len == 0) {  // not UTF-8: shown as its byte
            out += fmt::format("\\textbackslash{{}}x{:02x}", static_cast<unsigned char>(c));
          } else {
            out.append(s, i, len);
            i += len - 1;
          }
        } else {
          out += c;
        }
    }
  }
  return out;
}

// A measured cell: the number (with a superscript n/planned when fewer runs than planned gave
// it), or its status in italics (OOM, fail, missing).
std::string measured(const TableCell& c) {
  if (c.status) return "\\textit{" + tex(c.text) + "}";
  if (short_of_plan(c)) return fmt::format("{}$^{{{}/{}}}$", tex(c.text), c.n, c.planned);
  return tex(c.text);
}

std::string ratio(const TableCell& c) {
  if (!c.paper) return "";
  if (!c.ratio) return "--";
  return fmt::format("{:.2f}\\,{}", *c.ratio, c.pass.value_or(false) ? "$\\surd$" : "$\\times$");
}

}  // namespace

std::string render_latex(const Table& t) {
  std::vector<bool> referenced(t.columns.size(), false);
  for (const auto& row : t.rows)
    for (size_t j = 0; j < row.cells.size() && j < t.columns.size(); ++j)
      if (row.cells[j].paper) referenced[j] = true;
  const bool any_ref = std::find(referenced.begin(), referenced.end(), true) != referenced.end();
  const bool any_short = std::any_of(t.rows.begin(), t.rows.end(), [](const Table::Row& r) {
    return std::any_of(r.cells.begin(), r.cells.end(), short_of_plan);
  });

  std::string spec(t.row_params.size(), 'l');
  std::vector<std::string> header;
  for (const auto& p : t.row_params) header.push_back(tex(p));
  for (size_t j = 0; j < t.columns.size(); ++j) {
    spec += 'r';
    header.push_back(tex(header_text(t, j)));
    if (referenced[j]) {
      spec += "rr";
      header.insert(header.end(), {"paper", "ratio"});
    }
  }

  std::string caption = tex(t.title.empty() ? t.name : t.title);
  std::vector<std::string> source;
  if (!t.figure.empty()) source.push_back(tex(t.figure));
  if (!t.paper.empty()) source.push_back(tex(t.paper));
  if (!source.empty()) caption += fmt::format(" ({})", fmt::join(source, ", "));
  caption += ".";
  if (any_ref)
    caption += fmt::format(
        " Ratio = measured / paper; $\\surd$ within $\\pm${:g}\\,\\% of the paper value, "
        "$\\times$ outside.",
        t.tolerance * 100);
  if (any_short) caption += " $^{n/p}$: from $n$ of the $p$ planned runs.";

  std::string out;
  out += fmt::format("% aerun table {} --format latex (case {}); needs \\usepackage{{booktabs}}\n",
                     t.name, t.case_name);
  out += "\\begin{table}[t]\n\\centering\n";
  out += "\\caption{" + caption + "}\n";
  out += "\\label{tab:" + tex(t.name) + "}\n";
  out += "\\begin{tabular}{" + spec + "}\n\\toprule\n";
  out += fmt::format("{} \\\\\n\\midrule\n", fmt::join(header, " & "));
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (const auto& k : row.key) cells.push_back(tex(k));
    for (size_t j = 0; j < t.columns.size(); ++j) {
      const TableCell empty;
      const TableCell& c = j < row.cells.size() ? row.cells[j] : empty;
      cells.push_back(measured(c));
      if (!referenced[j]) continue;
      cells.push_back(c.paper ? fmt::format("{}", *c.paper) : "");  // as written
      cells.push_back(ratio(c));
    }
    out += fmt::format("{} \\\\\n", fmt::join(cells, " & "));
  }
  out += "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
  return out;
}

}  // namespace aerun
