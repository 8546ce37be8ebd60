// Durations as users write them: seconds, unit suffixes (1h30m) or clock form (1:30:00).
#include <cctype>
#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include "aerun/case/case_loader.hpp"

namespace aerun {

namespace {

// A non-negative decimal number filling all of `s`.
bool read_number(std::string_view s, double& out) {
  if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '.'))
    return false;
  for (char c : s)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.')) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && std::isfinite(out);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "1:30:00" or "30:00": the last field is seconds, the ones before minutes and hours.
bool read_clock(std::string_view s, double& out) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == ':') {
      fields.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  if (fields.size() < 2 || fields.size() > 3) return false;
  out = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    double v = 0;
    if (!read_number(fields[i], v)) return false;
    const bool last = i + 1 == fields.size();
    if (!last && v != std::trunc(v)) return false;  // only seconds may be fractional
    if (i > 0 && v >= 60) return false;             // MM and SS stay below 60
    out = out * 60 + v;
  }
  return true;
}

// "1h30m", "90s", "2h", "1d 2h": numbers with units, largest first, each unit at most once.
bool read_units(std::string_view s, double& out) {
  static constexpr std::string_view units = "dhms";
  static constexpr double seconds[] = {86400, 3600, 60, 1};
  out = 0;
  size_t next_unit = 0;
  size_t i = 0;
  bool any = false;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    const size_t b = i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
    double v = 0;
    if (!read_number(s.substr(b, i - b), v) || i == s.size()) return false;
    const size_t u = units.find(s[i]);
    if (u == std::string_view::npos || u < next_unit) return false;
    out += v * seconds[u];
    next_unit = u + 1;
    any = true;
    ++i;
  }
  return any;
}

}  // namespace

double parse_duration(const std::string& text, const SourceLoc& loc, const std::string& key) {
  const std::string_view s = trim(text);
  double v = 0;
  if (read_number(s, v) || read_clock(s, v) || read_units(s, v)) {
    // Ten years: more is a typo, and would overflow the hours of a job's time limit (issue 40's
    // third pass: 99999999999999999999d became `--time=-2562047788015215:-30:-8`).
    constexpr double kLongest = 10 * 366 * 86400.0;
    if (!(v <= kLongest))
      throw InputError(loc, key, "duration '" + text + "' is longer than ten years");
    return v;
  }
  throw InputError(loc, key,
                   "invalid duration '" + text +
                       "' (write seconds, or e.g. 90s, 10m, 2h, 1h30m, 1:30:00, 30:00)");
}

}  // namespace aerun
