#include "extract/parse_number.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace aerun {

namespace {

// "1,234,567.5" without its thousands separators, when they are well placed (a first group of 1 to
// 3 digits, then groups of exactly 3 up to the point or the end); nullopt otherwise ("1,5").
std::optional<std::string> without_separators(std::string_view s) {
  std::string out;
  size_t digits = 0;  // of the current group
  bool grouped = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) out.push_back(s[i++]);
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      out.push_back(c);
      ++digits;
    } else if (c == ',') {
      if (digits == 0 || digits > 3 || (grouped && digits != 3)) return std::nullopt;
      grouped = true;
      digits = 0;
    } else {
      break;
    }
  }
  if (!grouped || digits != 3) return std::nullopt;
  out.append(s.substr(i));
  return out;
}

// The finite number all of s is, by std::from_chars (no sign '+', no blanks); nullopt otherwise.
std::optional<double> whole_number(std::string_view s) {
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

}  // namespace

std::optional<double> parse_number(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  // Most values are plain ("6.661633E+00", "16384.0"): from_chars takes them whole at once. Any
  // quote, suffix or separator stops it early, and "inf"/"nan" are not finite: the way below.
  if (!s.empty() && s.front() != '+')
    if (const auto v = whole_number(s)) return v;
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front())
    s = s.substr(1, s.size() - 2);  // Transformers 5 logs '2.345'
  double scale = 1;
  if (s.size() >= 2 && s[s.size() - 2] >= '0' && s[s.size() - 2] <= '9') {
    switch (s.back()) {  // nanotron's human_format: 11.5K, 1.2M, 3.4G
      case 'k':
      case 'K':
        scale = 1e3;
        break;
      case 'M':
        scale = 1e6;
        break;
      case 'G':
      case 'B':
        scale = 1e9;
        break;  // nanotron since April 2025: "480B" tokens
      case 'T':
        scale = 1e12;
        break;
      case 'P':
        scale = 1e15;
        break;
      default:
        break;
    }
    if (scale != 1) s.remove_suffix(1);
  }
  std::string plain;
  if (s.find(',') != std::string_view::npos) {
    auto p = without_separators(s);
    if (!p) return std::nullopt;
    plain = std::move(*p);
    s = plain;
  }
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (!s.empty() && s.front() == '-') return std::nullopt;  // "+-1"
  }
  const auto v = whole_number(s);
  if (!v || !std::isfinite(*v * scale)) return std::nullopt;
  return *v * scale;
}

}  // namespace aerun
