#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {
bool safe_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '/' || c == ':' || c == '=' || c == '@' || c == '%' || c == '+' ||
         c == ',' || c == '-';
}
}  // namespace

std::string shell_quote(std::string_view s) {
  bool safe = !s.empty();
  for (char c : s)
    if (!safe_char(c)) {
      safe = false;
      break;
    }
  // A leading '=' or '%' is fine; a leading '-' stays a word too (quoting would not change that).
  if (safe) return std::string(s);
  std::string out;
  out.reserve(s.size() + 2);
  out += '\'';
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

std::string printable(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace aerun
