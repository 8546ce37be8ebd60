// Tables of a case: runs grouped into rows, aggregated into cells, compared with the paper.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/record/planned_runs.hpp"
#include "aerun/record/run_record.hpp"

namespace aerun {

// One cell: a measured aggregate (with min/max/n over repeats), a parameter value, or a status
// like "OOM"/"fail"/"missing".
struct TableCell {
  std::string text;             // what is printed
  std::optional<double> value;  // the aggregate (or a numeric parameter); nullopt for statuses
  double min = 0, max = 0;      // over the values aggregated
  int n = 0;                    // how many values were aggregated (0 for parameters/statuses)
  int planned = 0;              // runs the case plans for the cell now; 0 when not known
  std::optional<double> paper;  // the paper's value, when a reference names this cell
  std::optional<double> ratio;  // measured / paper
  std::optional<bool> pass;     // |ratio - 1| <= tolerance
  bool status = false;          // text is why there is no value: a run status ("OOM") or "missing"
  bool count = false;           // an `agg: n` cell: the value is the count, min/max mean nothing
  // A calendar-time cell (a run's start, first step...): value/min/max are epoch seconds, shown
  // as ISO 8601 by csv and json and by the column's format in the spread of md and html.
  struct Instant {
    std::string iso, iso_min, iso_max;  // ISO 8601 in the column's time zone
    std::string min_text, max_text;     // min and max by the column's format
  };
  std::optional<Instant> instant;
};

// Whether the cell was built from fewer runs than its case plans (1 of 3 repeats failed).
inline bool short_of_plan(const TableCell& c) {
  return c.planned > 0 && c.n < c.planned;
}
// "n=3", or "n=2/3" when the cell was built from fewer runs than planned.
std::string runs_count_text(const TableCell& c);

// A table ready to print: built from a TableSpec and the runs of its case.
struct Table {
  std::string name, title, case_name, paper, figure;
  std::vector<std::string> row_params;  // the row key columns
  std::vector<std::string> columns;     // column labels (after the row keys)
  struct Row {
    std::vector<std::string> key;
    std::vector<TableCell> cells;
  };
  std::vector<Row> rows;
  double tolerance = 0.1;
  std::vector<std::string> units;  // per column, "" when none (see header_text)
};

// A column's header: "label (unit)", or the label alone.
std::string header_text(const Table& t, size_t column);

// Groups the case's runs (and those of the table's runs_from cases, filtered by `where`) into
// rows and fills every cell: derived metrics per run, aggregates, largest_ok, speedups, the
// paper's values; a pivot table's pivot values become column groups.
// Throws InputError for a column aggregation, number format, formula or reference column that is
// unknown.
// With `plan`, every planned row is shown (its cells "missing" when no run is stored) and each
// measured cell records how many runs were planned for it.
Table build_table(const CaseSpec& c, const TableSpec& t, const std::vector<RunRecord>& runs,
                  const std::vector<PlannedRuns>& plan = {});

// The same table built from runs given one at a time, in any order: it keeps what the cells
// need (each value with its run's place in the run order), never the runs, so a table of a
// million runs stays small. run_params / run_metrics: the parameter and metric (or series) names
// the runs carry, known before they come (a column's source is a parameter or a metric by them).
class TableBuilder {
 public:
  // c and t are read as long as the builder lives (temporaries are refused at compile time).
  TableBuilder(const CaseSpec& c, const TableSpec& t, std::vector<std::string> run_params,
               std::vector<std::string> run_metrics);
  TableBuilder(CaseSpec&&, const TableSpec&, std::vector<std::string>,
               std::vector<std::string>) = delete;
  TableBuilder(const CaseSpec&, TableSpec&&, std::vector<std::string>,
               std::vector<std::string>) = delete;
  ~TableBuilder();
  TableBuilder(const TableBuilder&) = delete;
  TableBuilder& operator=(const TableBuilder&) = delete;
  void add(const RunRecord& r);
  // Takes what another builder of the same case and table took, as if its runs had been added
  // here after this one's (builders fed by threads reading parts of a store, merged in order:
  // the table is the same as one builder's given every run).
  void merge(TableBuilder&& later);
  Table finish(const std::vector<PlannedRuns>& plan = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A Markdown table with a heading, paper/ratio columns next to referenced columns and a legend.
std::string render_markdown(const Table&);
// Header row; one column per value; extra columns <label>_min, _max, _n, _paper, _ratio, _pass
// where relevant.
std::string render_csv(const Table&);
// An object with name/title/rows..., every number as a JSON number, null when missing.
std::string render_json(const Table&);

// A LaTeX table (booktabs: \toprule \midrule \bottomrule) with paper and ratio columns beside
// referenced columns, special characters escaped and a caption from the title and figure.
std::string render_latex(const Table&);
// One self-contained HTML page (inline CSS): the table, failed cells styled, pass/fail marks.
std::string render_html(const Table&);
// The table alone (caption, head, body, legend) for a page of one's own, and the CSS it expects.
std::string render_html_table(const Table&);
std::string html_table_style();

// A measured number as tables print it: `spec` as a fmt spec, or by default 4 significant
// digits (without an exponent below 10^15). Throws InputError when `spec` is not a valid spec.
std::string format_cell_number(double v, const std::string& spec = {});

}  // namespace aerun
