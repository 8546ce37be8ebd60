#include <fmt/format.h>

#include "aerun/report/table.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

// A row key as JSON: numbers as numbers, true/false as booleans, anything else as a string.
std::string json_key_value(const std::string& text) {
  const Value v = Value::parse(text);
  if (v.kind() == Value::Kind::Bool) return text;
  if (v.kind() == Value::Kind::Int || v.kind() == Value::Kind::Float)
    return json_number(v.number());
  return json_string(text);
}

std::string json_strings(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const auto& s : items) quoted.push_back(json_string(s));
  return fmt::format("[{}]", fmt::join(quoted, ", "));
}

// A cell as JSON: a calendar time's value, min and max as ISO 8601 strings, other numbers as
// numbers.
std::string json_cell(const TableCell& c) {
  const bool stats = c.n > 0 && !c.count;
  const std::string value = c.instant ? json_string(c.instant->iso) : json_number(c.value);
  const std::string min = c.instant ? json_string(c.instant->iso_min)
                          : stats   ? json_number(c.min)
                                    : "null";
  const std::string max = c.instant ? json_string(c.instant->iso_max)
                          : stats   ? json_number(c.max)
                                    : "null";
  return fmt::format(
      "{{\"text\": {}, \"value\": {}, \"min\": {}, \"max\": {}, \"n\": {}, \"planned\": {}, "
      "\"paper\": {}, \"ratio\": {}, \"pass\": {}}}",
      json_string(c.text == "—" ? "" : c.text), value, min, max,
      stats || c.count ? std::to_string(c.n) : "null",
      c.planned > 0 ? std::to_string(c.planned) : "null", json_number(c.paper),
      json_number(c.ratio), c.pass ? (*c.pass ? "true" : "false") : "null");
}

}  // namespace

std::string render_json(const Table& t) {
  std::string out = "{\n";
  out += fmt::format("  \"name\": {},\n", json_string(t.name));
  out += fmt::format("  \"title\": {},\n", json_string(t.title));
  out += fmt::format("  \"case\": {},\n", json_string(t.case_name));
  out += fmt::format("  \"paper\": {},\n", json_string(t.paper));
  out += fmt::format("  \"figure\": {},\n", json_string(t.figure));
  out += fmt::format("  \"tolerance\": {},\n", json_number(t.tolerance));
  out += fmt::format("  \"row_params\": {},\n", json_strings(t.row_params));
  out += fmt::format("  \"columns\": {},\n", json_strings(t.columns));
  out += "  \"rows\": [";
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const auto& row = t.rows[i];
    std::vector<std::string> key, cells;
    for (size_t k = 0; k < row.key.size() && k < t.row_params.size(); ++k)
      key.push_back(
          fmt::format("{}: {}", json_string(t.row_params[k]), json_key_value(row.key[k])));
    for (size_t j = 0; j < row.cells.size() && j < t.columns.size(); ++j)
      cells.push_back(fmt::format("{}: {}", json_string(t.columns[j]), json_cell(row.cells[j])));
    out += i == 0 ? "\n" : ",\n";
    out += fmt::format("    {{\"key\": {{{}}}, \"cells\": {{{}}}}}", fmt::join(key, ", "),
                       fmt::join(cells, ", "));
  }
  out += t.rows.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace aerun
