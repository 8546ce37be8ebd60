// The shared literal pass finds exactly what memmem would, for every literal, in order, with each
// occurrence's line and the block's line count — with the SIMD (Teddy) engine where the CPU has
// it and with the portable (Wu-Manber) engine.
#include "extract/multi_literal.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>

#include "extract/count_newlines.hpp"

using aerun::MultiLiteral;
using Engine = MultiLiteral::Engine;

namespace {

using Hit = std::tuple<size_t, size_t, size_t>;  // start, literal, line

struct Scanned {
  std::vector<Hit> hits;  // in the order reported
  size_t lines = 0;
};

Scanned scan(MultiLiteral& ml, const std::string& text) {
  Scanned s;
  s.lines = ml.scan(text.data(), text.size(), [&](size_t lit, size_t off, size_t line) {
    s.hits.emplace_back(off, lit, line);
  });
  return s;
}

Scanned brute_force(const std::vector<std::string>& lits, const std::string& text) {
  Scanned s;
  for (size_t off = 0; off < text.size(); ++off)
    for (size_t k = 0; k < lits.size(); ++k)
      if (text.compare(off, lits[k].size(), lits[k]) == 0)
        s.hits.emplace_back(off, k, std::count(text.begin(), text.begin() + off, '\n'));
  s.lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  return s;
}

// Random text over a small alphabet (so literals occur often), newlines included.
std::string random_text(std::mt19937& rng, const std::string& alphabet, size_t max_len) {
  std::string text(static_cast<size_t>(rng() % max_len), ' ');
  for (auto& c : text) c = alphabet[rng() % alphabet.size()];
  return text;
}

class MultiLiteralEngines : public testing::TestWithParam<Engine> {};

}  // namespace

TEST_P(MultiLiteralEngines, ReportsEveryOccurrenceInOrderOfStartWithItsLine) {
  MultiLiteral ml({"lm loss: ", "loss scale: ", "oss "}, GetParam());
  const std::string text = "x lm loss: 1\n| loss scale: 2 | oss \n\n";
  const auto s = scan(ml, text);
  // "oss " inside "loss scale" and at the end (not in "loss:")
  const std::vector<Hit> want{{2, 0, 0}, {15, 1, 1}, {16, 2, 1}, {31, 2, 1}};
  EXPECT_EQ(s.hits, want);
  EXPECT_EQ(s.lines, 3u);
}

TEST_P(MultiLiteralEngines, AgreesWithMemmemOnRandomText) {
  std::mt19937 rng(7);
  const std::vector<std::string> lits{"abca", "bcab", "ccab", "abcabcabca", "aaab"};
  MultiLiteral ml(lits, GetParam());
  for (int round = 0; round < 400; ++round) {
    const std::string text = random_text(rng, "abc\n", 300);
    auto got = scan(ml, text);
    std::sort(got.hits.begin(), got.hits.end());
    const auto want = brute_force(lits, text);
    EXPECT_EQ(got.hits, want.hits) << text;
    EXPECT_EQ(got.lines, want.lines) << text;
  }
}

TEST_P(MultiLiteralEngines, ManyLiteralsInMoreThanEightBucketsOnLongText) {
  // More distinct 3-byte prefixes than Teddy has buckets, on text long enough for the 32-byte
  // blocks and the tail; every length of tail.
  std::mt19937 rng(11);
  const std::vector<std::string> lits{"lm loss",   "loss scale", "iteration",  "CUDA out",
                                      "Killed",    "NCCL error", "ncclSystem", "TFLOPs",
                                      "grad norm", "samples",    "tokens per", "oom-kill",
                                      ": Out Of",  "number of",  "elapsed",    "walltime "};
  MultiLiteral ml(lits, GetParam());
  for (int round = 0; round < 300; ++round) {
    std::string text;
    const size_t len = static_cast<size_t>(rng() % 400);
    while (text.size() < len) {
      if (rng() % 3 == 0)
        text += lits[rng() % lits.size()].substr(0, 1 + rng() % 10);
      else
        text += random_text(rng, "lmosaiCUDKNnc: \nOTFgr", 8);
    }
    auto got = scan(ml, text);
    std::sort(got.hits.begin(), got.hits.end());
    const auto want = brute_force(lits, text);
    EXPECT_EQ(got.hits, want.hits) << text;
    EXPECT_EQ(got.lines, want.lines) << text;
  }
}

TEST_P(MultiLiteralEngines, LiteralsThatDifferOnlyInTheirFourthByteOrInCaseFillEveryBucket) {
  // Teddy looks up 4 bytes in 16 buckets, buckets 0-7 and 8-15 in the two halves of a register:
  // 48 literals whose heads share their first 3 bytes in pairs, or differ only in case, spread
  // over all of them; texts of every length up to 200 (the 16- and 32-byte blocks and every tail).
  std::vector<std::string> lits;
  for (const char* stem :
       {"los", "LOS", "ite", "ITe", "nCc", "NCC", "gra", "GRa", "Kil", "kil", "cud", "CUD",
        "tok", "TOK", "oom", "OOM", "err", "ERR", "ran", "Ran", "sam", "SAM", "nan", "NaN"})
    for (const char* tail : {"s:", "t "}) lits.push_back(std::string(stem) + tail);
  MultiLiteral ml(lits, GetParam());
  std::mt19937 rng(13);
  for (int round = 0; round < 600; ++round) {
    std::string text;
    const size_t len = static_cast<size_t>(round % 200);
    while (text.size() < len) {
      if (rng() % 2 == 0)
        text += lits[rng() % lits.size()].substr(0, 2 + rng() % 4);
      else
        text += random_text(rng, "lossLOSte:\n ", 5);
    }
    text.resize(len);
    auto got = scan(ml, text);
    std::sort(got.hits.begin(), got.hits.end());
    const auto want = brute_force(lits, text);
    EXPECT_EQ(got.hits, want.hits) << text;
    EXPECT_EQ(got.lines, want.lines) << text;
  }
}

TEST_P(MultiLiteralEngines, LiteralsAtTheVeryEndAndStartOfTheText) {
  MultiLiteral ml({"abcd", "wxyz"}, GetParam());
  for (size_t pad = 0; pad < 70; ++pad) {
    std::string text = "abcd";
    text.append(pad, '\n');
    text += "wxyz";
    const auto s = scan(ml, text);
    const std::vector<Hit> want{{0, 0, 0}, {4 + pad, 1, pad}};
    EXPECT_EQ(s.hits, want) << pad;
    EXPECT_EQ(s.lines, pad);
  }
}

TEST_P(MultiLiteralEngines, LiteralsAcrossTheSimdSlicesOfALongText) {
  // The SIMD engine goes through the text in slices of 64 KiB: occurrences on and around every
  // slice boundary, and their lines, are found like anywhere else.
  const std::vector<std::string> lits{"abcd", "xyzw"};
  MultiLiteral ml(lits, GetParam());
  std::string text(300000, '.');
  for (size_t i = 0; i < text.size(); i += 97) text[i] = '\n';
  for (const size_t slice : {size_t{65536}, size_t{131072}, size_t{262144}})
    for (size_t back = 0; back <= 5; ++back)
      text.replace(slice - back, 4, back % 2 ? "abcd" : "xyzw");
  auto got = scan(ml, text);
  std::sort(got.hits.begin(), got.hits.end());
  const auto want = brute_force(lits, text);
  EXPECT_EQ(got.hits, want.hits);
  EXPECT_EQ(got.lines, want.lines);
}

TEST_P(MultiLiteralEngines, TheSimdPassStopsAtAnEscapeOrACarriageReturnAnywhere) {
  // Asked to, the SIMD pass stops at the first ESC or CR (the extractor then cleans the block and
  // scans it again); without one it reports everything as before. Every position of one, in texts
  // of every length up to 150, across the 16- and 32-byte blocks, the tail and the 64 KiB slices.
  MultiLiteral ml({"abcd", "wxyz"}, GetParam());
  for (size_t len = 0; len <= 150; ++len) {
    std::string text(len, '.');
    for (size_t i = 0; i + 4 <= len; i += 9) text.replace(i, 4, i % 2 ? "abcd" : "wxyz");
    for (size_t i = 7; i < len; i += 11) text[i] = '\n';
    bool stopped = false;
    const auto clean = scan(ml, text);
    Scanned asked;
    asked.lines = ml.scan(
        text.data(), text.size(),
        [&](size_t lit, size_t off, size_t line) { asked.hits.emplace_back(off, lit, line); },
        &stopped);
    EXPECT_FALSE(stopped) << len;
    EXPECT_EQ(asked.hits, clean.hits) << len;
    EXPECT_EQ(asked.lines, clean.lines) << len;
    for (size_t at = 0; at < len; ++at)
      for (const char c : {'\x1b', '\r'}) {
        std::string dirty = text;
        dirty[at] = c;
        stopped = false;
        ml.scan(
            dirty.data(), dirty.size(), [](size_t, size_t, size_t) {}, &stopped);
        EXPECT_EQ(stopped, ml.stops_at_escapes()) << len << " " << at;
      }
  }
  std::string big(200000, 'x');
  big[131072 + 1] = '\r';  // past two slices
  bool stopped = false;
  ml.scan(
      big.data(), big.size(), [](size_t, size_t, size_t) {}, &stopped);
  EXPECT_EQ(stopped, ml.stops_at_escapes());
}

TEST_P(MultiLiteralEngines, WithoutLiteralsStillCountsLines) {
  MultiLiteral ml({}, GetParam());
  const auto s = scan(ml, "a\nb\n\nc");
  EXPECT_TRUE(s.hits.empty());
  EXPECT_EQ(s.lines, 3u);
}

INSTANTIATE_TEST_SUITE_P(EveryEngine, MultiLiteralEngines,
                         testing::Values(Engine::Best, Engine::Avx2, Engine::Portable));

TEST(MultiLiteral, UsesSimdOnlyWhenAskedForTheBestAndTheCpuHasIt) {
  EXPECT_EQ(MultiLiteral({"abcd"}).uses_simd(), aerun::Teddy::available());
  EXPECT_EQ(MultiLiteral({"abcd"}).stops_at_escapes(), aerun::Teddy::available());
  EXPECT_FALSE(MultiLiteral({"abcd"}, Engine::Portable).stops_at_escapes());
  EXPECT_FALSE(MultiLiteral({"abcd"}, Engine::Portable).uses_simd());
}

TEST(CountNewlines, CountsEveryNewlineAtAnyLengthAndAlignment) {
  std::mt19937 rng(3);
  for (int round = 0; round < 200; ++round) {
    const std::string text = random_text(rng, "a\n", 9000);
    const size_t from = text.empty() ? 0 : rng() % text.size();
    EXPECT_EQ(aerun::count_newlines(text.data() + from, text.size() - from),
              static_cast<size_t>(
                  std::count(text.begin() + static_cast<std::ptrdiff_t>(from), text.end(), '\n')));
  }
}
