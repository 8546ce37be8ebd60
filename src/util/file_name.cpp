#include "aerun/util/file_name.hpp"

#include "aerun/util/sha256.hpp"

namespace aerun {

namespace {

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '+' || c == '=' || c == ',' || c == '@' || c == '-';
}

}  // namespace

std::string file_name_part(std::string_view s) {
  bool kept = !s.empty() && s.size() <= 120 && s.front() != '.' && s.front() != '-';
  for (size_t i = 0; kept && i < s.size(); ++i) kept = name_char(s[i]);
  if (kept) return std::string(s);
  std::string out(s.substr(0, 100));
  for (char& c : out)
    if (!name_char(c)) c = '_';
  if (!out.empty() && (out.front() == '.' || out.front() == '-')) out.front() = '_';
  return out + "-" + sha256_hex(s).substr(0, 10);
}

}  // namespace aerun
