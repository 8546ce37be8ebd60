#include "aerun/util/text_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aerun/util/shown_text.hpp"
#include "aerun/util/utf8.hpp"

namespace aerun {

size_t valid_utf8_at(std::string_view s, size_t i) {
  char32_t cp = 0;
  const int len =
      utf8_length(reinterpret_cast<const unsigned char*>(s.data()) + i, s.size() - i, &cp);
  return len > 0 ? static_cast<size_t>(len) : 0;
}

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x80) {  // UTF-8 as it is; a stray byte as U+FFFD
      const size_t len = valid_utf8_at(s, i);
      if (len == 0) {
        out += "\xEF\xBF\xBD";
      } else {
        out.append(s.substr(i, len));
        i += len - 1;
      }
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
          out += "\xEF\xBF\xBD";
        else
          out += c;
    }
  }
  return out;
}

namespace {
bool g_csv_formula_guard = false;

// Whether s is a plain decimal number (which a spreadsheet reads as one, sign and all).
bool plain_number(std::string_view s) {
  size_t i = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  bool digits = false, dot = false;
  for (; i < s.size(); ++i) {
    if (s[i] >= '0' && s[i] <= '9') {
      digits = true;
    } else if (s[i] == '.' && !dot) {
      dot = true;
    } else if ((s[i] == 'e' || s[i] == 'E') && digits) {
      std::string_view exp = s.substr(i + 1);
      if (!exp.empty() && (exp[0] == '-' || exp[0] == '+')) exp.remove_prefix(1);
      return !exp.empty() && exp.find_first_not_of("0123456789") == std::string_view::npos;
    } else {
      return false;
    }
  }
  return digits;
}

std::string csv_quoted(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
}  // namespace

void set_csv_formula_guard(bool on) {
  g_csv_formula_guard = on;
}

std::string csv_field(std::string_view s) {
  if (g_csv_formula_guard && !s.empty() &&
      (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') &&
      !plain_number(s))
    return csv_quoted("'" + std::string(s));
  return csv_quoted(s);
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = p[i];
    if (c >= 0x80) {
      // UTF-8 as it is; a byte that is not part of valid UTF-8 as \udcXX (PEP 383's
      // surrogateescape: Python's `s.encode("utf-8", "surrogateescape")` gives the bytes back).
      char32_t cp = 0;
      const int len = utf8_length(p + i, s.size() - i, &cp);
      if (len > 0) {
        out.append(s.substr(i, static_cast<size_t>(len)));
        i += static_cast<size_t>(len) - 1;
      } else {
        out += fmt::format("\\udc{:02x}", c);
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20)
          out += fmt::format("\\u{:04x}", c);
        else
          out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string json_number(std::optional<double> v) {
  if (!v || !std::isfinite(*v)) return "null";
  return fmt::format("{}", *v);
}

std::string md_cell(std::string_view whole) {
  const std::string s = shown_text(whole);
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x80) {  // UTF-8 as it is; a stray byte as \xNN
      const size_t len = valid_utf8_at(s, i);
      if (len == 0) {
        out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
      } else {
        out.append(s, i, len);
        i += len - 1;
      }
    } else if (c == '|')
      out += "\\|";
    else if (c == '\\')  // else "a\|b" would show as "a|b": the pipe's escape ate it
      out += "\\\\";
    else if (c == '\n' || c == '\r' || c == '\t')
      out += ' ';
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)  // ESC [31m ... never reaches a tty
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out;
}

std::string format_number(double v, std::string_view spec) {
  if (!std::isfinite(v)) return fmt::format("{}", v);
  if (spec.empty()) return fmt::format("{:.4g}", v);
  return fmt::format(fmt::runtime("{:" + std::string(spec) + "}"), v);
}

std::vector<std::string> comma_items(std::string_view s) {
  std::vector<std::string> out;
  for (size_t at = 0; at <= s.size();) {
    const size_t comma = std::min(s.find(',', at), s.size());
    if (comma > at) out.emplace_back(s.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

}  // namespace aerun
