// The shared literal pass finds exactly what memmem would, for every literal, in order.
#include "extract/multi_literal.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

TEST(MultiLiteral, ReportsEveryOccurrenceInOrderOfStart) {
  const aerun::MultiLiteral ml({"lm loss: ", "loss scale: ", "oss "});
  const std::string text = "x lm loss: 1 | loss scale: 2 | oss ";
  std::vector<std::pair<size_t, size_t>> hits;
  ml.scan(text.data(), text.size(), [&](size_t lit, size_t off) { hits.emplace_back(lit, off); });
  // "oss " inside "loss scale" and at the end (not in "loss:")
  const std::vector<std::pair<size_t, size_t>> want{{0, 2}, {1, 15}, {2, 16}, {2, 31}};
  EXPECT_EQ(hits, want);
}

TEST(MultiLiteral, AgreesWithMemmemOnRandomText) {
  std::mt19937 rng(7);
  const std::vector<std::string> lits{"abca", "bcab", "ccab", "abcabcabca", "aaab"};
  const aerun::MultiLiteral ml(lits);
  for (int round = 0; round < 200; ++round) {
    std::string text(static_cast<size_t>(rng() % 300), 'a');
    for (auto& c : text) c = static_cast<char>('a' + rng() % 3);
    std::vector<std::pair<size_t, size_t>> got, want;
    ml.scan(text.data(), text.size(), [&](size_t lit, size_t off) { got.emplace_back(off, lit); });
    for (size_t off = 0; off < text.size(); ++off)
      for (size_t k = 0; k < lits.size(); ++k)
        if (text.compare(off, lits[k].size(), lits[k]) == 0) want.emplace_back(off, k);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << text;
  }
}
