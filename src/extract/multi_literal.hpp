// Finding many literal strings in one pass over a block of text, counting its lines on the way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "extract/count_newlines.hpp"
#include "extract/short_bytes.hpp"
#include "extract/teddy.hpp"

namespace aerun {

// A set of literals (each at least 4 bytes) searched together. On a CPU with AVX2 a Teddy
// prefilter (teddy.hpp) proposes offsets 16 or 32 bytes at a time and counts newlines in the same
// pass; the literals are grouped into its 16 buckets so that each bucket's nibble tables accept as
// few other 4-byte windows as possible. Elsewhere (or with Engine::Portable) a Wu-Manber pass jumps
// ahead by a shift looked up from the last two bytes of the window (block size 2, the shift table
// hashed to 4096 one-byte entries so it stays in L1 cache), and newlines are counted separately.
// Occurrences are reported in order of their start offset (overlapping ones included).
class MultiLiteral {
 public:
  // Best: Teddy at the CPU's widest (AVX-512BW or AVX2), else Wu-Manber; Avx2: never wider than
  // AVX2 (to compare the two on one machine); Portable: Wu-Manber.
  enum class Engine { Best, Avx2, Portable };

  MultiLiteral() = default;
  explicit MultiLiteral(std::vector<std::string> literals, Engine engine = Engine::Best);

  bool empty() const { return literals_.empty(); }
  const std::vector<std::string>& literals() const { return literals_; }
  bool uses_simd() const { return teddy_.has_value(); }

  // Calls fn(literal_index, start_offset, line) for each occurrence in text[0, n), where line is
  // the number of '\n' before it; returns the number of '\n' in text[0, n).
  // Const: one MultiLiteral serves several threads at once.
  // With stopped, and when stops_at_escapes(): stops at the first ESC (0x1B) or CR in text, sets
  // *stopped and returns 0 (fn may have been called for occurrences before it).
  template <class Fn>
  size_t scan(const char* text, size_t n, Fn&& fn, bool* stopped = nullptr) const {
    if (literals_.empty()) return count_newlines(text, n);
    if (teddy_) return scan_teddy(text, n, fn, stopped);
    return scan_wu_manber(text, n, fn);
  }
  // Whether scan() looks for ESC and CR on its way (the SIMD pass does, in the same loads).
  bool stops_at_escapes() const { return teddy_.has_value(); }

 private:
  // Whether literal id starts at text[start] (text has n bytes).
  bool occurs(const unsigned char* t, size_t n, size_t start, uint32_t id) const {
    const std::string& lit = literals_[id];
    if (start + lit.size() > n) return false;
    uint32_t head;  // the first 4 bytes first: most candidates fail there, without a call
    std::memcpy(&head, t + start, 4);
    return head == heads_[id] && tail_equal(t + start, lit);
  }

  // Whether p[4, lit.size()) equals lit's bytes after its head (p has lit.size() bytes).
  static bool tail_equal(const unsigned char* p, const std::string& lit) {
    return same_bytes(p + 4, lit.data() + 4, lit.size() - 4);
  }

  // Teddy's candidates are checked through a hash of their first 4 bytes: each literal with that
  // head is compared, whatever the bucket that proposed the offset. The text goes by slices of
  // kSlice bytes (plus the 3 that windows starting in the slice reach into), so the candidate
  // buffer stays small whatever the size of the text.
  template <class Fn>
  size_t scan_teddy(const char* text, size_t n, Fn& fn, bool* stopped) const {
    constexpr size_t kSlice = 64u << 10;
    thread_local std::vector<Teddy::Candidate> candidates;  // reused: a slice's candidates
    candidates.resize(kSlice + Teddy::kWindow);
    const auto* t = reinterpret_cast<const unsigned char*>(text);
    size_t lines = 0;
    for (size_t from = 0; from < n; from += kSlice) {
      const size_t len = std::min(kSlice, n - from);
      const size_t reach = std::min(len + Teddy::kWindow - 1, n - from);
      const size_t base = lines;  // newlines before the slice
      size_t found = 0;
      const size_t slice_lines =
          teddy_->scan(text + from, reach, candidates.data(), &found, stopped != nullptr);
      if (slice_lines == Teddy::kStopped) {
        *stopped = true;
        return 0;
      }
      lines += slice_lines;
      for (size_t k = len; k < reach; ++k) lines -= text[from + k] == '\n';  // the next slice's
      for (const Teddy::Candidate& c : std::span(candidates.data(), found)) {
        const size_t off = from + c.offset;
        if (c.offset >= len || n - off < 4) continue;
        uint32_t head;
        std::memcpy(&head, t + off, 4);
        const uint32_t h = head_hash(head);
        for (uint32_t k = slot_begin_[h]; k < slot_begin_[h + 1]; ++k) {
          const uint32_t id = slot_[k];
          const std::string& lit = literals_[id];
          if (heads_[id] == head && n - off >= lit.size() && tail_equal(t + off, lit))
            fn(static_cast<size_t>(id), off, base + c.line);
        }
      }
    }
    return lines;
  }

  template <class Fn>
  size_t scan_wu_manber(const char* text, size_t n, Fn& fn) const {
    size_t lines = 0, counted = 0;  // newlines in text[0, counted)
    if (n >= m_) {
      const auto* t = reinterpret_cast<const unsigned char*>(text);
      size_t i = m_ - 1;
      while (i < n) {
        const unsigned h = hash(t[i - 1], t[i]);
        if (const unsigned s = shift_[h]) {
          i += s;
          continue;
        }
        const size_t start = i - (m_ - 1);
        for (uint32_t k = bucket_begin_[h]; k < bucket_begin_[h + 1]; ++k) {
          if (!occurs(t, n, start, bucket_[k])) continue;
          lines += count_newlines(text + counted, start - counted);
          counted = start;
          fn(static_cast<size_t>(bucket_[k]), start, lines);
        }
        ++i;
      }
    }
    return lines + count_newlines(text + counted, n - counted);
  }

  void build_wu_manber();
  void build_teddy(Teddy::Width width);

  static constexpr unsigned kBits = 12;
  static unsigned hash(unsigned char a, unsigned char b) {
    return ((static_cast<unsigned>(a) << 5) ^ b) & ((1u << kBits) - 1);
  }
  std::vector<std::string> literals_;
  std::vector<uint32_t> heads_;  // the first 4 bytes of each literal
  // Teddy: the prefilter (its nibble tables for the literals' buckets).
  std::optional<Teddy> teddy_;
  static constexpr unsigned kHeadBits = 8;
  static uint32_t head_hash(uint32_t head) { return (head * 0x9E3779B1u) >> (32 - kHeadBits); }
  std::vector<uint32_t> slot_begin_;  // by head_hash: [begin, end) in slot_ of literal indices
  std::vector<uint32_t> slot_;
  // Wu-Manber.
  size_t m_ = 0;                        // length of the shortest literal
  std::vector<uint8_t> shift_;          // by hash of a bigram: how far the window may jump
  std::vector<uint32_t> bucket_begin_;  // by hash: [begin, end) in bucket_ of candidate literals
  std::vector<uint32_t> bucket_;        // literal indices whose m-prefix ends in that bigram
};

}  // namespace aerun
