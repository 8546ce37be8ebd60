// Finding many literal strings in one pass over a block of text (Wu-Manber).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace aerun {

// A set of literals (each at least 4 bytes) searched together: one left-to-right pass that jumps
// ahead by a shift looked up from the last two bytes of the window (Wu-Manber, block size 2, the
// shift table hashed to 4096 one-byte entries so it stays in L1 cache). Most bytes of a log are
// never looked at when the shortest literal is long. Occurrences are reported in order of their
// start offset (overlapping ones included).
class MultiLiteral {
 public:
  MultiLiteral() = default;
  explicit MultiLiteral(std::vector<std::string> literals);

  bool empty() const { return literals_.empty(); }
  const std::vector<std::string>& literals() const { return literals_; }

  // Calls fn(literal_index, start_offset) for each occurrence in text[0, n).
  template <class Fn>
  void scan(const char* text, size_t n, Fn&& fn) const {
    if (literals_.empty() || n < m_) return;
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
        const std::string& lit = literals_[bucket_[k]];
        if (start + lit.size() > n) continue;
        uint32_t head;  // the first 4 bytes first: most candidates fail there, without a call
        std::memcpy(&head, t + start, 4);
        if (head == heads_[bucket_[k]] &&
            std::memcmp(t + start + 4, lit.data() + 4, lit.size() - 4) == 0)
          fn(static_cast<size_t>(bucket_[k]), start);
      }
      ++i;
    }
  }

 private:
  static constexpr unsigned kBits = 12;
  static unsigned hash(unsigned char a, unsigned char b) {
    return ((static_cast<unsigned>(a) << 5) ^ b) & ((1u << kBits) - 1);
  }
  std::vector<std::string> literals_;
  size_t m_ = 0;                        // length of the shortest literal
  std::vector<uint8_t> shift_;          // by hash of a bigram: how far the window may jump
  std::vector<uint32_t> bucket_begin_;  // by hash: [begin, end) in bucket_ of candidate literals
  std::vector<uint32_t> bucket_;        // literal indices whose m-prefix ends in that bigram
  std::vector<uint32_t> heads_;         // the first 4 bytes of each literal
};

}  // namespace aerun
