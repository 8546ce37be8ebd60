#include "aerun/shell_quote.hpp"

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

}  // namespace aerun
