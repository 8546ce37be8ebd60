#include "extract/count_newlines.hpp"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace aerun {

size_t count_newlines(const char* p, size_t n) {
  size_t count = 0;
  size_t i = 0;
#ifdef __SSE2__
  const __m128i nl = _mm_set1_epi8('\n');
  while (n - i >= 16) {
    // Up to 255 blocks add their matches (-1 per byte) into byte counters, then psadbw sums them.
    __m128i acc = _mm_setzero_si128();
    for (int k = 0; k < 255 && n - i >= 16; ++k, i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
    }
    const __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
    count += static_cast<size_t>(_mm_cvtsi128_si32(sums)) +
             static_cast<size_t>(_mm_extract_epi16(sums, 4));
  }
#endif
  for (; i < n; ++i) count += p[i] == '\n';
  return count;
}

}  // namespace aerun
