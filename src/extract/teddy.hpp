// A SIMD prefilter for many literals at once (Teddy, as in Hyperscan and Rust's aho-corasick).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace aerun {

// Finds the offsets where one of up to 8 groups ("buckets") of literals may start, 32 bytes at a
// time with AVX2 (64 with AVX-512BW when the CPU has it, chosen at run time), and counts the
// newlines on the way. Each literal's first three bytes are
// looked up by nibble in per-bucket bit tables (pshufb); a byte position passes when all three
// bytes agree with one bucket. Passing offsets are candidates only: the caller compares the
// literals of the buckets reported. Needs a CPU with AVX2 (available() says; the code is built for
// it with a function attribute, so the rest of the program keeps the baseline instruction set).
class Teddy {
 public:
  // One offset where a literal of the given buckets may start, with its line (newlines before it).
  struct Candidate {
    uint32_t offset;
    uint32_t line;
    uint32_t buckets;
  };

  // The registers scan() works with: AVX2's 32 bytes, or AVX-512BW's 64 when the CPU has it.
  enum class Width { Avx2, Avx512 };

  // Literals of at least 3 bytes; bucket_of[i] in [0, 8) is literal i's bucket. width: the widest
  // to use (the CPU's widest when it is narrower).
  Teddy(const std::vector<std::string>& literals, const std::vector<uint8_t>& bucket_of,
        Width width = Width::Avx512);

  // Whether this CPU can run scan(), and the widest registers it has for it.
  static bool available();
  static Width widest();
  Width width() const { return width_; }

  // Appends the candidates of text[0, n) (n < 4 GiB) to out in offset order; returns the number of
  // '\n' bytes in it.
  size_t scan(const char* text, size_t n, std::vector<Candidate>& out) const;

 private:
  // By window byte j (0..2): the buckets accepting each low / high nibble, twice (both 128-bit
  // lanes of a 256-bit register).
  alignas(32) uint8_t lo_[3][32] = {};
  alignas(32) uint8_t hi_[3][32] = {};
  Width width_;
};

}  // namespace aerun
