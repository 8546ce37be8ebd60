// nearest_key(): the "did you mean" suggestion for a misspelt key.
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"

namespace aerun {
namespace {

const std::vector<std::string> kKeys{"case",   "params",  "metrics", "command",
                                     "repeat", "retries", "tables",  "timeout"};

TEST(NearestKey, SuggestsTheKeyWithSwappedLetters) {
  EXPECT_EQ(nearest_key("metircs", kKeys), "metrics");
}

TEST(NearestKey, SuggestsTheKeyWithAMissingOrExtraLetter) {
  EXPECT_EQ(nearest_key("comand", kKeys), "command");
  EXPECT_EQ(nearest_key("paramss", kKeys), "params");
  EXPECT_EQ(nearest_key("table", kKeys), "tables");
}

TEST(NearestKey, IgnoresCase) {
  EXPECT_EQ(nearest_key("Repeat", kKeys), "repeat");
}

TEST(NearestKey, PrefersTheCloserOfTwoCandidates) {
  EXPECT_EQ(nearest_key("retires", kKeys), "retries");
  EXPECT_EQ(nearest_key("repat", kKeys), "repeat");
}

TEST(NearestKey, ReturnsNothingWhenNoKeyIsClose) {
  EXPECT_EQ(nearest_key("banana", kKeys), "");
  EXPECT_EQ(nearest_key("x", kKeys), "");
  EXPECT_EQ(nearest_key("metrics", {}), "");
}

}  // namespace
}  // namespace aerun
