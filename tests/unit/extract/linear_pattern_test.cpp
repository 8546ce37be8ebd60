// The RE2-free matcher is used only for patterns it recognises, and on those it gives exactly
// RE2's anchored match and capture, on real and random lines.
#include "extract/linear_pattern.hpp"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <memory>
#include <random>

#include "aerun/case/apply_presets.hpp"

using aerun::LinearPattern;

namespace {

const std::string kNum = R"(([0-9.]+(?:[eE][+-]?[0-9]+)?))";

// Every metric pattern of the `megatron` preset, alternatives included.
std::vector<std::string> megatron_metric_patterns() {
  aerun::CaseSpec spec;
  spec.name = "t";
  spec.presets = {"megatron"};
  aerun::apply_presets(spec, {});
  std::vector<std::string> out;
  for (const auto& m : spec.metrics) {
    out.push_back(m.pattern);
    for (const auto& a : m.alternatives) out.push_back(a.pattern);
  }
  out.push_back(spec.startup.first_step);
  return out;
}

// Recognised patterns beyond the preset's, with sets, optional parts and groups.
const std::vector<std::string> kMorePatterns = {
    R"(elapsed time per iteration \(ms\): ([\d.]+))",
    R"(lm loss: ([0-9.E+-]+))",
    R"(loss=\s*(-?[0-9]+(?:\.[0-9]+)?))",
    R"(step (\d+)/\d+ \| tgs: ([0-9.]+))",  // two groups: not recognised, see below
    R"(a\.b?c*(x+))",
    R"(x: ()\d)",
    R"(CUDA out of memory)",
    R"(time \(ms\) \| e2e-time: ([\d.]+))",
    R"(nan=(nan|[0-9]+))",  // alternation: not recognised
    R"(val: ([+-]?\d+))",
    R"(rate:\s+([0-9.]+)\s*%)",
};

// Lines made of pieces that exercise the patterns: their literals (also inside other words and
// several times), numbers of every form, nan/inf, whitespace of every kind and stray bytes.
std::string random_line(std::mt19937& rng) {
  static const std::vector<std::string> pieces = {
      "lm loss: ",
      "lm loss=",
      "loss scale: ",
      "grad norm: ",
      "iteration",
      " iteration ",
      "iterations:",
      "elapsed time per iteration (ms): ",
      "elapsed time per iteration (s): ",
      "number of skipped iterations:",
      "number of nan iterations:",
      "samples per second: ",
      "TFLOPs: ",
      "TFLOPs=",
      "throughput per GPU (TFLOP/s/GPU): ",
      "tokens per gpu per second (tgs): ",
      "loss=",
      "val: ",
      "rate:",
      "a.b",
      "a.c",
      "x: ",
      "step ",
      "iteration=",
      "subiteration",
      "1",
      "12",
      "6919.0",
      "1.406E-06",
      "9.999000E+00",
      "3.623",
      ".5",
      "5.",
      "1.2.3",
      "-4",
      "+7",
      "1e5",
      "1e",
      "1e+",
      "2E-",
      "nan",
      "NaN",
      "inf",
      "-inf",
      "0",
      "00012",
      "/",
      "/ ",
      " 1000000",
      "/1000",
      "%",
      " ",
      "  ",
      "\t",
      "\v",
      "\f",
      "\r",
      "\n",
      "|",
      " | ",
      "x",
      "c",
      "\xc3\xa9",
      "\xff",
      "e",
      "E",
      "-",
      "+",
      "s",
  };
  std::string line;
  const size_t n = 1 + rng() % 12;
  for (size_t i = 0; i < n; ++i) line += pieces[rng() % pieces.size()];
  return line;
}

// RE2's match anchored at pos, as (matched, capture offset, capture size).
std::tuple<bool, long, long> re2_at(const RE2& re, std::string_view text, size_t pos) {
  re2::StringPiece sub[2];
  const int n = re.NumberOfCapturingGroups() == 1 ? 2 : 1;
  if (!re.Match(re2::StringPiece(text.data(), text.size()), pos, text.size(), RE2::ANCHOR_START,
                sub, n))
    return {false, 0, 0};
  if (n == 1) return {true, 0, 0};
  return {true, static_cast<long>(sub[1].data() - text.data()), static_cast<long>(sub[1].size())};
}

std::tuple<bool, long, long> fast_at(const LinearPattern& lp, std::string_view text, size_t pos) {
  std::string_view cap;
  if (!lp.match_at(text, pos, &cap)) return {false, 0, 0};
  if (lp.groups() == 0) return {true, 0, 0};
  return {true, static_cast<long>(cap.data() - text.data()), static_cast<long>(cap.size())};
}

}  // namespace

TEST(LinearPattern, RecognisesEveryMegatronMetricPattern) {
  for (const auto& p : megatron_metric_patterns())
    EXPECT_TRUE(LinearPattern::recognise(p).has_value()) << p;
}

TEST(LinearPattern, LeavesEverythingElseToRe2) {
  for (const std::string p : {
           R"(a|b)",          R"(^iteration (\d+))", R"(loss (\d+)$)",     R"(\bloss: (\d+))",
           R"(loss.(\d+))",   R"(loss: ([^ ]+))",    R"(loss: (\S+))",     R"(loss: (\w+))",
           R"(x{2,}(\d))",    R"(a+?(\d))",          R"((?i)loss: (\d+))", "caf\xc3\xa9: (\\d+)",
           R"((\d+) (\d+))",  R"((\d+)?)",           R"((?:ab)*(\d))",     R"((?P<n>\d+))",
           R"([[:digit:]]+)", R"(\x41(\d))",         R"(\t(\d))",
           R"(\d+\d)",                         // greedy \d+ would leave nothing for \d
           R"(a*a)",          R"(\s*( ?\d))",  // a quantified set overlapping what follows
           R"((?:e\d)?e)",                     // an optional group overlapping what follows
       })
    EXPECT_FALSE(LinearPattern::recognise(p).has_value()) << p;
  EXPECT_TRUE(LinearPattern::recognise(R"(loss: [0-9]+(\.))"));  // \. is disjoint from [0-9]
}

TEST(LinearPattern, CapturesLikeRe2OnARealIterationLine) {
  const std::string line =
      " iteration        7/ 1000000 | elapsed time per iteration (ms): 6919.0 | learning rate: "
      "1.406E-06 | lm loss: 9.999000E+00 | loss scale: 1.0 | grad norm: 3.623 | number of "
      "skipped iterations:   0 | number of nan iterations:   0 |";
  for (const auto& p : megatron_metric_patterns()) {
    const auto lp = LinearPattern::recognise(p);
    ASSERT_TRUE(lp) << p;
    const RE2 re(p);
    for (size_t pos = 0; pos <= line.size(); ++pos)
      EXPECT_EQ(fast_at(*lp, line, pos), re2_at(re, line, pos)) << p << " at " << pos;
  }
  std::string_view cap;
  ASSERT_TRUE(LinearPattern::recognise(std::string("lm loss: ") + kNum)
                  ->match_at(line, line.find("lm loss"), &cap));
  EXPECT_EQ(cap, "9.999000E+00");
}

TEST(LinearPattern, AgreesWithRe2AtEveryOffsetOfRandomLines) {
  std::vector<std::string> patterns = megatron_metric_patterns();
  for (const auto& p : kMorePatterns)
    if (LinearPattern::recognise(p)) patterns.push_back(p);
  ASSERT_GT(patterns.size(), 30u);
  std::vector<LinearPattern> fast;
  std::vector<std::unique_ptr<RE2>> slow;
  for (const auto& p : patterns) {
    fast.push_back(*LinearPattern::recognise(p));
    slow.push_back(std::make_unique<RE2>(p));
    ASSERT_EQ(fast.back().groups(), slow.back()->NumberOfCapturingGroups()) << p;
  }
  std::mt19937 rng(2024);
  for (int round = 0; round < 3000; ++round) {
    const std::string line = random_line(rng);
    for (size_t k = 0; k < patterns.size(); ++k)
      for (size_t pos = 0; pos <= line.size(); ++pos)
        ASSERT_EQ(fast_at(fast[k], line, pos), re2_at(*slow[k], line, pos))
            << patterns[k] << " on '" << line << "' at " << pos;
  }
}

TEST(LinearPattern, TrustsTheLeadingBytesTheCallerHasCheckedAndComparesTheRest) {
  const auto lp = LinearPattern::recognise(std::string("lm loss: ") + kNum);
  ASSERT_TRUE(lp);
  EXPECT_EQ(lp->leading_text(), "lm loss: ");
  std::string_view cap;
  // "lm l" found by the caller at 4: the rest of the text and the number still decide.
  EXPECT_TRUE(lp->match_at("xx | lm loss: 2.5 |", 5, &cap, 4));
  EXPECT_EQ(cap, "2.5");
  EXPECT_FALSE(lp->match_at("xx | lm lost: 2.5 |", 5, &cap, 4));  // differs after the known part
  EXPECT_FALSE(lp->match_at("xx | lm loss: x |", 5, &cap, 4));    // no number
  EXPECT_FALSE(lp->match_at("xx | lm loss", 5, &cap, 4));         // text too short
  // The known bytes are not compared again: this is the caller's promise.
  EXPECT_TRUE(lp->match_at("xx | XXXXoss: 7 |", 5, &cap, 4));
  EXPECT_EQ(cap, "7");
}

TEST(LinearPattern, NumbersWithExponentsSignsDotsAndNan) {
  const auto lp = LinearPattern::recognise(std::string("v: ") + kNum);
  ASSERT_TRUE(lp);
  const auto cap = [&](const std::string& line) {
    std::string_view c;
    return lp->match_at(line, 0, &c) ? std::string(c) : std::string("<no match>");
  };
  EXPECT_EQ(cap("v: 1.5e-3 ms"), "1.5e-3");
  EXPECT_EQ(cap("v: 1.5e ms"), "1.5");  // the exponent needs digits: left out
  EXPECT_EQ(cap("v: 2E+"), "2");
  EXPECT_EQ(cap("v: .5"), ".5");
  EXPECT_EQ(cap("v: 1.2.3"), "1.2.3");  // captured; not a number later
  EXPECT_EQ(cap("v: -1"), "<no match>");
  EXPECT_EQ(cap("v: nan"), "<no match>");
  EXPECT_EQ(cap("v:  1"), "<no match>");  // one space only, as written
}
