#include "aerun/util/shown_text.hpp"

#include <fmt/format.h>

namespace aerun {

std::string shown_text(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  const std::string tail = fmt::format("\u2026 ({} bytes)", s.size());
  size_t cut = max_bytes > tail.size() ? max_bytes - tail.size() : 0;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // continuation
  return std::string(s.substr(0, cut)) + tail;
}

}  // namespace aerun
