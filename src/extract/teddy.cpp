#include "extract/teddy.hpp"

#include <cstring>
#include <stdexcept>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define AERUN_TEDDY_AVX2 1
#endif

namespace aerun {

Teddy::Teddy(const std::vector<std::string>& literals, const std::vector<uint8_t>& bucket_of,
             Width width)
    : width_(width == Width::Avx512 && widest() == Width::Avx512 ? Width::Avx512 : Width::Avx2) {
  for (size_t i = 0; i < literals.size(); ++i) {
    if (literals[i].size() < 3 || bucket_of.at(i) >= 8)
      throw std::invalid_argument("Teddy: literals need 3 bytes and a bucket below 8");
    const auto bit = static_cast<uint8_t>(1u << bucket_of[i]);
    for (size_t j = 0; j < 3; ++j) {
      const auto c = static_cast<unsigned char>(literals[i][j]);
      lo_[j][c & 15] |= bit;
      lo_[j][16 + (c & 15)] |= bit;
      hi_[j][c >> 4] |= bit;
      hi_[j][16 + (c >> 4)] |= bit;
    }
  }
}

#ifdef AERUN_TEDDY_AVX2

bool Teddy::available() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}

namespace {

// The buckets whose window byte j accepts each byte of v.
__attribute__((target("avx2"))) inline __m256i classify(__m256i v, __m256i lo, __m256i hi) {
  const __m256i nib = _mm256_set1_epi8(0x0F);
  const __m256i l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
  const __m256i h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
  return _mm256_and_si256(l, h);
}

// Scans p[0, 32) (with p[32], p[33] readable): the 32 windows' bucket bytes into m, and returns the
// mask of windows with some bucket; *newlines gets the mask of '\n' in p[0, 32).
__attribute__((target("avx2"))) inline uint32_t block(const unsigned char* p, const __m256i* tab,
                                                      uint8_t* m, uint32_t* newlines) {
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1));
  const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 2));
  __m256i r = _mm256_and_si256(classify(a, tab[0], tab[3]), classify(b, tab[1], tab[4]));
  r = _mm256_and_si256(r, classify(c, tab[2], tab[5]));
  *newlines =
      static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, _mm256_set1_epi8('\n'))));
  const uint32_t any =
      ~static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(r, _mm256_setzero_si256())));
  if (any) _mm256_storeu_si256(reinterpret_cast<__m256i*>(m), r);
  return any;
}

// Appends the candidates of the block at base (windows any, bucket bytes m, newlines nl).
__attribute__((target("avx2,popcnt,bmi"))) inline void emit(size_t base, uint32_t any, uint32_t nl,
                                                            size_t lines, const uint8_t* m,
                                                            std::vector<Teddy::Candidate>& out) {
  while (any) {
    const unsigned k = static_cast<unsigned>(__builtin_ctz(any));
    const auto before = static_cast<unsigned>(__builtin_popcount(nl & ((1u << k) - 1)));
    out.push_back({static_cast<uint32_t>(base + k), static_cast<uint32_t>(lines + before), m[k]});
    any &= any - 1;
  }
}

// The same 64 bytes at a time with AVX-512BW (the nibble tables in all four 128-bit lanes, the
// masks straight from compares): text[0, n) up to the last whole 64 bytes whose windows are
// readable; returns how far it went and adds the newlines before that to *lines.
#define AERUN_AVX512 "avx512f,avx512bw,popcnt,bmi"
__attribute__((target(AERUN_AVX512))) inline __m512i classify64(__m512i v, __m512i lo, __m512i hi) {
  const __m512i nib = _mm512_set1_epi8(0x0F);
  const __m512i l = _mm512_shuffle_epi8(lo, _mm512_and_si512(v, nib));
  const __m512i h = _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
  return _mm512_and_si512(l, h);
}

__attribute__((target(AERUN_AVX512))) size_t scan64(const unsigned char* t, size_t n,
                                                    const uint8_t (*lo)[32],
                                                    const uint8_t (*hi)[32], size_t* lines,
                                                    std::vector<Teddy::Candidate>& out) {
  alignas(64) uint8_t wide[6][64];  // each 32-byte table twice: in all four 128-bit lanes
  for (int j = 0; j < 3; ++j)
    for (int half = 0; half < 2; ++half) {
      std::memcpy(wide[j] + 32 * half, lo[j], 32);
      std::memcpy(wide[3 + j] + 32 * half, hi[j], 32);
    }
  __m512i tab[6];
  for (int j = 0; j < 6; ++j) tab[j] = _mm512_load_si512(wide[j]);
  const __m512i newline = _mm512_set1_epi8('\n');
  alignas(64) uint8_t m[64];
  size_t i = 0, count = *lines;
  for (; i + 66 <= n; i += 64) {
    const __m512i a = _mm512_loadu_si512(t + i);
    const __m512i b = _mm512_loadu_si512(t + i + 1);
    const __m512i c = _mm512_loadu_si512(t + i + 2);
    __m512i r = _mm512_and_si512(classify64(a, tab[0], tab[3]), classify64(b, tab[1], tab[4]));
    r = _mm512_and_si512(r, classify64(c, tab[2], tab[5]));
    const uint64_t nl = _mm512_cmpeq_epi8_mask(a, newline);
    uint64_t any = _mm512_test_epi8_mask(r, r);
    if (any) {
      _mm512_store_si512(m, r);
      do {
        const unsigned k = static_cast<unsigned>(__builtin_ctzll(any));
        const auto before = static_cast<unsigned>(__builtin_popcountll(nl & ((1ull << k) - 1)));
        out.push_back({static_cast<uint32_t>(i + k), static_cast<uint32_t>(count + before), m[k]});
        any &= any - 1;
      } while (any);
    }
    count += static_cast<unsigned>(__builtin_popcountll(nl));
  }
  *lines = count;
  return i;
}

#undef AERUN_AVX512

bool has_avx512bw() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  return yes;
}

}  // namespace

Teddy::Width Teddy::widest() {
  return has_avx512bw() ? Width::Avx512 : Width::Avx2;
}

__attribute__((target("avx2,popcnt,bmi"))) size_t Teddy::scan(const char* text, size_t n,
                                                              std::vector<Candidate>& out) const {
  const auto* t = reinterpret_cast<const unsigned char*>(text);
  size_t lines = 0;
  size_t i = width_ == Width::Avx512 ? scan64(t, n, lo_, hi_, &lines, out) : 0;
  __m256i tab[6];
  for (int j = 0; j < 3; ++j) {
    tab[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lo_[j]));
    tab[3 + j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(hi_[j]));
  }
  alignas(32) uint8_t m[32];
  for (; i + 34 <= n; i += 32) {
    uint32_t nl;
    const uint32_t any = block(t + i, tab, m, &nl);
    if (any) emit(i, any, nl, lines, m, out);
    lines += static_cast<unsigned>(__builtin_popcount(nl));
  }
  // The tail, through a zero-padded copy: windows reaching past the end are not reported.
  while (i < n) {
    alignas(32) unsigned char pad[66] = {};
    const size_t len = n - i < 32 ? n - i : 32;
    std::memcpy(pad, t + i, n - i < 34 ? n - i : 34);
    uint32_t nl;
    uint32_t any = block(pad, tab, m, &nl);
    const uint32_t valid = len == 32 ? ~0u : (1u << len) - 1;
    nl &= valid;
    const size_t windows = n - i >= 2 ? n - i - 2 : 0;  // windows fully inside the text
    any &= windows >= 32 ? ~0u : (1u << windows) - 1;
    emit(i, any, nl, lines, m, out);
    lines += static_cast<unsigned>(__builtin_popcount(nl));
    i += len;
  }
  return lines;
}

#else

bool Teddy::available() {
  return false;
}

Teddy::Width Teddy::widest() {
  return Width::Avx2;
}

size_t Teddy::scan(const char*, size_t, std::vector<Candidate>&) const {
  throw std::logic_error("Teddy::scan needs AVX2");
}

#endif

}  // namespace aerun
