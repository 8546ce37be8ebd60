// ASCII character classes for the log reader: locale-free (std::isdigit and std::isalpha depend on
// the C locale and take only unsigned char values), so a byte of UTF-8 is never a letter or digit.
#pragma once

namespace aerun::logread {

inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
inline bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace aerun::logread
