// The inline compare and find of short byte strings agree with memcmp and memmem at every length
// and position, the ends of the buffers included.
#include "extract/short_bytes.hpp"

#include <gtest/gtest.h>
#include <string.h>

#include <random>
#include <string>

namespace {

TEST(ShortBytes, SameBytesAgreesWithMemcmpAtEveryLength) {
  std::mt19937 rng(5);
  for (size_t n = 0; n <= 40; ++n)
    for (int round = 0; round < 200; ++round) {
      std::string a(n, 'x'), b(n, 'x');
      for (size_t i = 0; i < n; ++i) a[i] = b[i] = static_cast<char>('a' + rng() % 3);
      if (n > 0 && rng() % 2) b[rng() % n] = 'z';  // one byte differs, anywhere
      EXPECT_EQ(aerun::same_bytes(a.data(), b.data(), n), std::memcmp(a.data(), b.data(), n) == 0)
          << a << " / " << b;
    }
}

TEST(ShortBytes, FindBytesAgreesWithMemmem) {
  std::mt19937 rng(9);
  for (int round = 0; round < 5000; ++round) {
    std::string hay(rng() % 70, ' ');
    for (auto& c : hay) c = "ab\n"[rng() % 3];
    std::string needle(1 + rng() % 6, ' ');
    for (auto& c : needle) c = "ab"[rng() % 2];
    const void* want = ::memmem(hay.data(), hay.size(), needle.data(), needle.size());
    EXPECT_EQ(aerun::find_bytes(hay.data(), hay.size(), needle.data(), needle.size()), want)
        << hay << " / " << needle;
  }
}

TEST(ShortBytes, FindBytesAtTheVeryEndAndInAnEmptyText) {
  const std::string hay = "xx loss";
  EXPECT_EQ(aerun::find_bytes(hay.data(), hay.size(), "loss", 4), hay.data() + 3);
  EXPECT_EQ(aerun::find_bytes(hay.data(), hay.size(), "losss", 5), nullptr);
  EXPECT_EQ(aerun::find_bytes(hay.data(), 0, "l", 1), nullptr);
}

}  // namespace
