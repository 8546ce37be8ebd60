// Comparing and finding short byte strings inline: the extraction's hot loops compare a literal's
// few bytes at a candidate, or look for its next occurrence in a line, millions of times, where a
// call to memcmp costs more than the compare, and glibc's memmem sets up a 256-entry shift table
// on every call before it looks at the line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace aerun {

// a[0, n) == b[0, n): 8 bytes at a time, the last load overlapping; under 8 bytes, two
// overlapping 4-byte loads, or byte by byte under 4.
inline bool same_bytes(const void* a, const void* b, size_t n) {
  const auto* p = static_cast<const unsigned char*>(a);
  const auto* q = static_cast<const unsigned char*>(b);
  if (n >= 8) {
    uint64_t x, y;
    for (size_t i = 0; i + 8 < n; i += 8) {
      std::memcpy(&x, p + i, 8);
      std::memcpy(&y, q + i, 8);
      if (x != y) return false;
    }
    std::memcpy(&x, p + n - 8, 8);
    std::memcpy(&y, q + n - 8, 8);
    return x == y;
  }
  if (n >= 4) {
    uint32_t x, y, u, v;
    std::memcpy(&x, p, 4);
    std::memcpy(&y, q, 4);
    std::memcpy(&u, p + n - 4, 4);
    std::memcpy(&v, q + n - 4, 4);
    return x == y && u == v;
  }
  for (size_t i = 0; i < n; ++i)
    if (p[i] != q[i]) return false;
  return true;
}

// The first occurrence of needle[0, m) in hay[0, n) (m >= 1), or nullptr: memchr (SIMD in glibc)
// for the needle's first byte, then same_bytes for the rest. Meant for needles of a few bytes in a
// line, not for long texts.
inline const char* find_bytes(const char* hay, size_t n, const char* needle, size_t m) {
  if (m == 0 || m > n) return m == 0 ? hay : nullptr;
  const char* const last = hay + (n - m);  // the last place it may start
  for (const char* p = hay; p <= last; ++p) {
    p = static_cast<const char*>(std::memchr(p, needle[0], static_cast<size_t>(last - p) + 1));
    if (!p) return nullptr;
    if (same_bytes(p + 1, needle + 1, m - 1)) return p;
  }
  return nullptr;
}

}  // namespace aerun
