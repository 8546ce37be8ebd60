#include "extract/clean_lines.hpp"

#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace aerun {

bool needs_cleaning(const char* p, size_t n) {
  size_t i = 0;
#ifdef __SSE2__
  const __m128i esc = _mm_set1_epi8('\x1b');
  const __m128i cr = _mm_set1_epi8('\r');
  for (; n - i >= 64; i += 64) {
    __m128i any = _mm_setzero_si128();
    for (int k = 0; k < 4; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 16 * k));
      any = _mm_or_si128(any, _mm_or_si128(_mm_cmpeq_epi8(v, esc), _mm_cmpeq_epi8(v, cr)));
    }
    if (_mm_movemask_epi8(any) != 0) return true;
  }
#endif
  for (; i < n; ++i)
    if (p[i] == '\x1b' || p[i] == '\r') return true;
  return false;
}

void clean_lines(const char* p, size_t n, std::string& out) {
  out.reserve(out.size() + n);
  size_t i = 0;
  while (i < n) {
    // Copy up to the next ESC or CR at once.
    size_t j = i;
    while (j < n && p[j] != '\x1b' && p[j] != '\r') ++j;
    out.append(p + i, j - i);
    if (j == n) break;
    if (p[j] == '\r') {
      if (j + 1 < n && p[j + 1] == '\n') {
        i = j + 1;  // "\r\n": the '\n' is copied next
      } else {
        out.push_back('\n');
        i = j + 1;
      }
      continue;
    }
    // ESC: skip the sequence (never past a line end).
    size_t k = j + 1;
    if (k < n && p[k] == '[') {  // CSI: parameters and intermediates, then one final byte
      ++k;
      while (k < n && static_cast<unsigned char>(p[k]) >= 0x20 &&
             static_cast<unsigned char>(p[k]) <= 0x3F)
        ++k;
      if (k < n && static_cast<unsigned char>(p[k]) >= 0x40 &&
          static_cast<unsigned char>(p[k]) <= 0x7E)
        ++k;
    } else if (k < n && p[k] == ']') {  // OSC: up to BEL or ESC '\'
      ++k;
      while (k < n && p[k] != '\a' && p[k] != '\n' && p[k] != '\x1b') ++k;
      if (k < n && p[k] == '\a')
        ++k;
      else if (k + 1 < n && p[k] == '\x1b' && p[k + 1] == '\\')
        k += 2;
    } else if (k < n && p[k] != '\n' && p[k] != '\r') {
      ++k;  // a two-byte sequence
    }
    i = k;
  }
}

}  // namespace aerun
