// Small text helpers shared by the outputs: CSV and JSON escaping, Markdown cells, numbers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aerun {

// A CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF. With the formula guard on
// (`--csv-safe`), a field that a spreadsheet would run as a formula (starting with = + - @, a tab
// or a carriage return, and not a number) is written with a leading ' (OWASP's "CSV injection").
std::string csv_field(std::string_view s);
// Turns the formula guard of csv_field on or off for this process (off by default: the CSV is
// then the exact stored text, for programs).
void set_csv_formula_guard(bool on);
// A JSON string literal, quotes included: always valid JSON, whatever the bytes (a byte that is
// not part of valid UTF-8 is written \udcXX, as PEP 383's surrogateescape does).
std::string json_string(std::string_view s);
// A JSON number, or null for a missing/non-finite value.
std::string json_number(std::optional<double> v);
// A Markdown table cell: '|' and '\' escaped (GitHub Markdown shows "a\|b" as it is), newlines and
// tabs folded, other control characters (ESC: terminal escape sequences) and bytes that are not
// valid UTF-8 written as \xNN; a value longer than kShownBytes is shown by its start and size
// (shown_text).
std::string md_cell(std::string_view s);
// Text for HTML or XML: & < > " ' as entities; control characters other than tab and newline
// (which XML 1.0 cannot hold) and bytes that are not valid UTF-8 as U+FFFD.
std::string html_escape(std::string_view s);
// The length of the valid UTF-8 sequence at s[i], or 0 when the byte there starts none.
size_t valid_utf8_at(std::string_view s, size_t i);
// A number with `spec` as a fmt format spec (e.g. ".3f"); default: 4 significant digits.
std::string format_number(double v, std::string_view spec = {});
// The items of a comma-separated list, in order, empty ones left out ("a,,b," -> a, b).
std::vector<std::string> comma_items(std::string_view s);

}  // namespace aerun
