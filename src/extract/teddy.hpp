// A SIMD prefilter for many literals at once (Teddy, as in Hyperscan and Rust's aho-corasick).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace aerun {

// Finds the offsets where one of up to 16 groups ("buckets") of literals may start, and counts
// the newlines on the way. Each literal's first four bytes are looked up by nibble in per-bucket
// bit tables (pshufb); a byte position passes when all four bytes agree with one bucket. The
// "fat" layout of Hyperscan's Teddy: a register holds its input twice, one copy classified
// against buckets 0-7 and the other against 8-15, so 16 positions go per step with AVX2 (32 with
// AVX-512BW when the CPU has it, chosen at run time). Passing offsets are candidates only: the
// caller compares the literals that start with those bytes. Needs a CPU with AVX2 (available()
// says; the code is built for it with a function attribute, so the rest of the program keeps the
// baseline instruction set).
//
// Why 16 buckets of 4 bytes, not 8 of 3: the pass itself costs about what reading the text does
// (0.085 s vs 0.075 s per 512 MiB here); checking candidates is what costs (about 5 ns each).
// With the base failure vocabulary's ~150 literals, 8 buckets of 3 bytes let through ten times
// as many offsets as hold a literal (docs/performance.md measures it).
class Teddy {
 public:
  // One offset where a literal may start, with its line (newlines before it).
  struct Candidate {
    uint32_t offset;
    uint32_t line;
  };

  // The registers scan() works with: AVX2's 32 bytes, or AVX-512BW's 64 when the CPU has it.
  enum class Width { Avx2, Avx512 };
  static constexpr size_t kBuckets = 16;
  static constexpr size_t kWindow = 4;  // bytes of each literal looked up

  // Literals of at least kWindow bytes; bucket_of[i] in [0, kBuckets) is literal i's bucket.
  // width: the widest to use (the CPU's widest when it is narrower).
  Teddy(const std::vector<std::string>& literals, const std::vector<uint8_t>& bucket_of,
        Width width = Width::Avx512);

  // Whether this CPU can run scan(), and the widest registers it has for it.
  static bool available();
  static Width widest();
  Width width() const { return width_; }

  // Writes the candidates of text[0, n) (n < 4 GiB) to out in offset order, *found of them (out
  // has room for n); returns the number of '\n' bytes in text. With stop_at_escapes, returns
  // kStopped as soon as it meets an ESC (0x1B) or a CR in text: the caller cleans the text first
  // (clean_lines.hpp) and scans it again; *found and out are then not to be read.
  static constexpr size_t kStopped = SIZE_MAX;
  size_t scan(const char* text, size_t n, Candidate* out, size_t* found,
              bool stop_at_escapes = false) const;

 private:
  // By window byte j: the buckets accepting each low / high nibble, buckets 0-7 in bytes 0-15
  // (the low 128-bit lane of a 256-bit register), buckets 8-15 in bytes 16-31 (the high lane).
  alignas(32) uint8_t lo_[kWindow][32] = {};
  alignas(32) uint8_t hi_[kWindow][32] = {};
  Width width_;
};

}  // namespace aerun
