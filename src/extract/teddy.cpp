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
    if (literals[i].size() < kWindow || bucket_of.at(i) >= kBuckets)
      throw std::invalid_argument("Teddy: literals need 4 bytes and a bucket below 16");
    const auto bit = static_cast<uint8_t>(1u << (bucket_of[i] & 7));
    const size_t lane = bucket_of[i] < 8 ? 0 : 16;
    for (size_t j = 0; j < kWindow; ++j) {
      const auto c = static_cast<unsigned char>(literals[i][j]);
      lo_[j][lane + (c & 15)] |= bit;
      hi_[j][lane + (c >> 4)] |= bit;
    }
  }
}

#ifdef AERUN_TEDDY_AVX2

bool Teddy::available() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}

namespace {

// The buckets whose window byte j accepts each byte of v (per 128-bit lane: lane 0 buckets 0-7,
// lane 1 buckets 8-15).
__attribute__((target("avx2"))) inline __m256i classify(__m256i v, __m256i lo, __m256i hi) {
  const __m256i nib = _mm256_set1_epi8(0x0F);
  const __m256i l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
  const __m256i h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
  return _mm256_and_si256(l, h);
}

// Scans the 16 windows starting in p[0, 16) (p[16, 19) readable): returns the mask of windows
// with some bucket; *newlines gets the mask of '\n' in p[0, 16).
__attribute__((target("avx2"))) inline uint32_t block16(const unsigned char* p, const __m256i* tab,
                                                        uint32_t* newlines) {
  __m256i r = _mm256_set1_epi8(-1);
  __m256i first = r;
  for (size_t j = 0; j < Teddy::kWindow; ++j) {
    const __m256i v =
        _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + j)));
    if (j == 0) first = v;
    r = _mm256_and_si256(r, classify(v, tab[j], tab[Teddy::kWindow + j]));
  }
  *newlines = static_cast<uint32_t>(
                  _mm256_movemask_epi8(_mm256_cmpeq_epi8(first, _mm256_set1_epi8('\n')))) &
              0xFFFFu;
  const uint32_t some =
      ~static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(r, _mm256_setzero_si256())));
  return (some | some >> 16) & 0xFFFFu;
}

// Writes the candidates of the block at base (windows any, newlines nl before them) at out;
// returns the end of what it wrote. No call and no capacity check: the vector registers the
// pass holds stay in registers (a push_back's possible reallocation made the compiler save and
// reload all of them around every block with a candidate).
__attribute__((target("popcnt,bmi"))) inline Teddy::Candidate* emit(size_t base, uint64_t any,
                                                                    uint64_t nl, size_t lines,
                                                                    Teddy::Candidate* out) {
  while (any) {
    const unsigned k = static_cast<unsigned>(__builtin_ctzll(any));
    const auto before = static_cast<unsigned>(__builtin_popcountll(nl & ((1ull << k) - 1)));
    *out++ = {static_cast<uint32_t>(base + k), static_cast<uint32_t>(lines + before)};
    any &= any - 1;
  }
  return out;
}

#define AERUN_AVX512 "avx512f,avx512bw,popcnt,bmi"
__attribute__((target(AERUN_AVX512))) inline __m512i classify64(__m512i v, __m512i lo, __m512i hi) {
  const __m512i nib = _mm512_set1_epi8(0x0F);
  const __m512i l = _mm512_shuffle_epi8(lo, _mm512_and_si512(v, nib));
  const __m512i h = _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
  return _mm512_and_si512(l, h);
}

// p[0, 32) in both halves of a register.
__attribute__((target(AERUN_AVX512))) inline __m512i twice32(const unsigned char* p) {
  return _mm512_maskz_broadcast_i64x4(0xFF,
                                      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

// The same 32 positions at a time with AVX-512BW (the input twice, in the low and the high
// 256 bits; the tables of buckets 0-7 in lanes 0 and 1, of 8-15 in lanes 2 and 3): text[0, n) up
// to the last whole 32 bytes whose windows are readable; returns how far it went and adds the
// newlines before that to *lines. Stop: returns SIZE_MAX at the first ESC or CR.
template <bool Stop>
__attribute__((target(AERUN_AVX512))) size_t scan32(const unsigned char* t, size_t n,
                                                    const uint8_t (*lo)[32],
                                                    const uint8_t (*hi)[32], size_t* lines,
                                                    Teddy::Candidate** out) {
  constexpr size_t W = Teddy::kWindow;
  alignas(64) uint8_t wide[2 * W][64];  // each lane's 16 bytes twice
  for (size_t j = 0; j < W; ++j)
    for (size_t lane = 0; lane < 2; ++lane)
      for (size_t twice = 0; twice < 2; ++twice) {
        std::memcpy(wide[j] + 32 * lane + 16 * twice, lo[j] + 16 * lane, 16);
        std::memcpy(wide[W + j] + 32 * lane + 16 * twice, hi[j] + 16 * lane, 16);
      }
  __m512i tab[2 * W];
  for (size_t j = 0; j < 2 * W; ++j) tab[j] = _mm512_load_si512(wide[j]);
  const __m512i newline = _mm512_set1_epi8('\n');
  const __m512i esc = _mm512_set1_epi8('\x1b');
  const __m512i cr = _mm512_set1_epi8('\r');
  size_t i = 0, count = *lines;
  Teddy::Candidate* o = *out;
  for (; i + 32 + W - 1 <= n; i += 32) {
    const __m512i a = twice32(t + i);
    if constexpr (Stop)
      if (_mm512_cmpeq_epi8_mask(a, esc) | _mm512_cmpeq_epi8_mask(a, cr)) return SIZE_MAX;
    __m512i r = classify64(a, tab[0], tab[W]);
    r = _mm512_and_si512(r, classify64(twice32(t + i + 1), tab[1], tab[W + 1]));
    r = _mm512_and_si512(r, classify64(twice32(t + i + 2), tab[2], tab[W + 2]));
    r = _mm512_and_si512(r, classify64(twice32(t + i + 3), tab[3], tab[W + 3]));
    const auto nl = static_cast<uint32_t>(_mm512_cmpeq_epi8_mask(a, newline));
    const uint64_t some = _mm512_test_epi8_mask(r, r);
    const auto any = static_cast<uint32_t>(some | some >> 32);
    if (any) o = emit(i, any, nl, count, o);
    count += static_cast<unsigned>(__builtin_popcount(nl));
  }
  *lines = count;
  *out = o;
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

// Whether p[0, len) holds an ESC or a CR (len <= 16, p[0, 16) readable).
__attribute__((target("avx2"))) inline bool escapes16(const unsigned char* p, size_t len) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\x1b')),
                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
  const auto mask = static_cast<uint32_t>(_mm_movemask_epi8(hit));
  return (mask & (len >= 16 ? 0xFFFFu : (1u << len) - 1)) != 0;
}

__attribute__((target("avx2,popcnt,bmi"))) size_t Teddy::scan(const char* text, size_t n,
                                                              Candidate* out, size_t* found,
                                                              bool stop_at_escapes) const {
  const auto* t = reinterpret_cast<const unsigned char*>(text);
  Candidate* const first = out;
  *found = 0;
  size_t lines = 0;
  size_t i = 0;
  if (width_ == Width::Avx512) {
    i = stop_at_escapes ? scan32<true>(t, n, lo_, hi_, &lines, &out)
                        : scan32<false>(t, n, lo_, hi_, &lines, &out);
    if (i == SIZE_MAX) return kStopped;
  }
  __m256i tab[2 * kWindow];
  for (size_t j = 0; j < kWindow; ++j) {
    tab[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lo_[j]));
    tab[kWindow + j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(hi_[j]));
  }
  for (; i + 16 + kWindow - 1 <= n; i += 16) {
    if (stop_at_escapes && escapes16(t + i, 16)) return kStopped;
    uint32_t nl;
    const uint32_t any = block16(t + i, tab, &nl);
    if (any) out = emit(i, any, nl, lines, out);
    lines += static_cast<unsigned>(__builtin_popcount(nl));
  }
  // The tail, through a zero-padded copy: windows reaching past the end are not reported.
  while (i < n) {
    alignas(32) unsigned char pad[16 + kWindow] = {};
    const size_t len = n - i < 16 ? n - i : 16;
    std::memcpy(pad, t + i, n - i < sizeof pad ? n - i : sizeof pad);
    if (stop_at_escapes && escapes16(pad, len)) return kStopped;
    uint32_t nl;
    uint32_t any = block16(pad, tab, &nl);
    nl &= len == 16 ? 0xFFFFu : (1u << len) - 1;
    const size_t windows = n - i >= kWindow ? n - i - (kWindow - 1) : 0;  // wholly in the text
    any &= windows >= 16 ? 0xFFFFu : (1u << windows) - 1;
    out = emit(i, any, nl, lines, out);
    lines += static_cast<unsigned>(__builtin_popcount(nl));
    i += len;
  }
  *found = static_cast<size_t>(out - first);
  return lines;
}

#else

bool Teddy::available() {
  return false;
}

Teddy::Width Teddy::widest() {
  return Width::Avx2;
}

size_t Teddy::scan(const char*, size_t, Candidate*, size_t*, bool) const {
  throw std::logic_error("Teddy::scan needs AVX2");
}

#endif

}  // namespace aerun
