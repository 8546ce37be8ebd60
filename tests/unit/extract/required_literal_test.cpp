#include "extract/required_literal.hpp"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <fstream>
#include <sstream>

using aerun::prefix_literal;
using aerun::required_literal;

TEST(RequiredLiteral, UnescapesPunctuationInTheLongestTopLevelRun) {
  EXPECT_EQ(required_literal(R"(elapsed time per iteration \(ms\): ([\d.]+))"),
            "elapsed time per iteration (ms): ");
  EXPECT_EQ(required_literal(R"(time \(ms\) \| e2e-time: ([\d.]+))"), "time (ms) | e2e-time: ");
}

TEST(RequiredLiteral, QuantifiedAtomsGroupsAndClassesBreakTheRun) {
  EXPECT_EQ(required_literal("ab?cd"), "cd");
  EXPECT_EQ(required_literal("abc*de"), "ab");
  EXPECT_EQ(required_literal("x{2}yz"), "yz");
  EXPECT_EQ(required_literal(R"(\d+ms)"), "ms");
  EXPECT_EQ(required_literal("[abc]def(gh)ij"), "def");
  EXPECT_EQ(required_literal("(?:elapsed)[^:]*: (x)"), ": ");
  EXPECT_EQ(required_literal(R"(step=(\d+),)"), "step=");
  EXPECT_EQ(required_literal("ok\u00e9+x"), "ok");  // a UTF-8 character is one atom
}

// A scoped flag group (?i:...) is a group like any other: the text around it keeps its literal
// (Slurm's cancellation lines: without it, six status patterns were matched on every line and
// extraction ran 6x slower).
TEST(RequiredLiteral, AScopedFlagGroupIsAGroup) {
  EXPECT_EQ(required_literal(R"(CANCELLED AT \S+ (?i:due to) TIME LIMIT)"), "CANCELLED AT ");
  EXPECT_EQ(prefix_literal(R"(CANCELLED AT \S+ (?i:due to) TIME LIMIT)"), "CANCELLED AT ");
  EXPECT_EQ(required_literal("(?-s:a.)bcd"), "bcd");
  EXPECT_EQ(required_literal("x(?i)foo"), "");  // a bare flag changes all that follows
  RE2 re(R"(CANCELLED AT \S+ (?i:due to) TIME LIMIT)");
  const std::string line =
      "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT 2026-11-23T10:00:00 DUE TO TIME LIMIT ***";
  EXPECT_TRUE(RE2::PartialMatch(line, re));
  EXPECT_NE(line.find(required_literal(re.pattern())), std::string::npos);
}

TEST(RequiredLiteral, NoLiteralWhenUnsure) {
  EXPECT_EQ(required_literal("foo|bar"), "");
  EXPECT_EQ(required_literal("(?i)foo"), "");
  EXPECT_EQ(required_literal(R"(\x41BC)"), "");
  EXPECT_EQ(required_literal(R"(\Qa.b\E)"), "");
  EXPECT_EQ(required_literal("a{,2}"), "");
  EXPECT_EQ(required_literal("(unbalanced"), "");
  EXPECT_EQ(required_literal(R"(\d+)"), "");
}

TEST(RequiredLiteral, EveryMatchingLineContainsTheLiteral) {
  const std::vector<std::string> patterns = {R"(lm loss: ([0-9.E+-]+))",
                                             R"(iterations?\s*(\d+)/\s+50 \|)",
                                             R"(a\.b|c)",
                                             R"(\[INFO\]\[trainer:\d+\] - step=)",
                                             R"(\.(\d+) B)",
                                             "B$",
                                             R"(^\.  > the)"};
  std::ifstream in(std::string(AERUN_FIXTURES) + "/logs/fixture_megatron_stronghold.log");
  std::ifstream in2(std::string(AERUN_FIXTURES) + "/logs/fixture_ezpz_trainer.log");
  std::stringstream ss;
  ss << in.rdbuf() << in2.rdbuf();
  std::vector<std::string> lines;
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  for (const auto& p : patterns) {
    RE2 re(p);
    ASSERT_TRUE(re.ok()) << p;
    const std::string lit = required_literal(p);
    int matched = 0;
    for (const auto& l : lines)
      if (RE2::PartialMatch(l, re)) {
        ++matched;
        EXPECT_NE(l.find(lit), std::string::npos) << p << " / " << l;
      }
    EXPECT_GT(matched, 0) << p;
  }
}

TEST(PrefixLiteral, IsTheLiteralRunThePatternStartsWith) {
  EXPECT_EQ(prefix_literal(R"(lm loss: ([0-9.E+-]+))"), "lm loss: ");
  EXPECT_EQ(prefix_literal(R"(\[Rank 0\] step=(\d+))"), "[Rank 0] step=");
  EXPECT_EQ(prefix_literal("abc?d"), "ab");
  EXPECT_EQ(prefix_literal(R"(^lm loss)"), "");
  EXPECT_EQ(prefix_literal(R"(\blm loss)"), "");
  EXPECT_EQ(prefix_literal(R"((\d+) ms)"), "");
  EXPECT_EQ(prefix_literal("a|b"), "");
}

TEST(SearchLiteral, IsThePrefixWhenLongEnoughElseTheLiteralEveryMatchContains) {
  bool anchored = false;
  EXPECT_EQ(aerun::search_literal(R"(lm loss: ([0-9.]+))", &anchored), "lm loss: ");
  EXPECT_TRUE(anchored);
  // "it" is too short a prefix to anchor on: the longest literal run is searched instead.
  EXPECT_EQ(aerun::search_literal(R"(it\s+(\d+) iterations done)", &anchored), " iterations done");
  EXPECT_FALSE(anchored);
}
