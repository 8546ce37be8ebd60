// Hand-built cases and runs for the report tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/record/run_record.hpp"

namespace aerun::testing {

inline ParamList params(std::vector<std::pair<std::string, std::string>> kv) {
  ParamList out;
  for (auto& [k, v] : kv) out.emplace_back(k, Value::parse(v));
  return out;
}

// A run of case "demo" with the given parameters, status and metric values.
inline RunRecord make_run(ParamList p, std::string status,
                          std::vector<std::pair<std::string, double>> metrics = {},
                          int repeat = 0) {
  static long long next_id = 1;
  RunRecord r;
  r.id = next_id++;
  r.case_name = "demo";
  r.repeat_index = repeat;
  r.status = std::move(status);
  r.params = std::move(p);
  for (auto& [name, value] : metrics) {
    MetricValue m;
    m.name = name;
    m.value = value;
    m.count = 1;
    r.metrics.push_back(m);
  }
  return r;
}

inline CaseSpec make_case() {
  CaseSpec c;
  c.file = "/cases/demo.yaml";
  c.name = "demo";
  c.title = "Demo";
  c.paper = "aerun demo (CPU MLP)";
  c.figure = "Table D1";
  ParamSpec hidden;
  hidden.name = "hidden";
  hidden.values = {Value::parse("64"), Value::parse("128")};
  hidden.is_list = true;
  c.params.push_back(hidden);
  MetricSpec iter;
  iter.name = "iter_ms";
  iter.unit = "ms";
  c.metrics.push_back(iter);
  return c;
}

inline ColumnSpec column(std::string source, std::string agg = "median", std::string format = {}) {
  ColumnSpec col;
  col.source = std::move(source);
  col.agg = parse_aggregation(agg).value();
  col.format = std::move(format);
  return col;
}

inline TableSpec make_table(std::vector<std::string> rows, std::vector<ColumnSpec> columns) {
  TableSpec t;
  t.name = "demo";
  t.title = "Iteration time of the demo MLP";
  t.rows = std::move(rows);
  t.columns = std::move(columns);
  t.loc = SourceLoc{"/cases/demo.yaml", 20, 3};
  return t;
}

// A table `derive:` entry written at line 30 of the demo case.
inline TableDerive derive(std::string name, std::string formula, std::string unit = {}) {
  TableDerive d;
  d.name = std::move(name);
  d.formula = std::move(formula);
  d.unit = std::move(unit);
  d.loc = SourceLoc{"/cases/demo.yaml", 30, 7};
  return d;
}

inline Reference reference(ParamList match, std::string column, double value) {
  Reference r;
  r.match = std::move(match);
  r.column = std::move(column);
  r.value = value;
  r.loc = SourceLoc{"/cases/demo.yaml", 24, 7};
  return r;
}

}  // namespace aerun::testing
