#include "aerun/run/run_plan.hpp"
#include "aerun/util/error.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using aerun::ParamList;
using aerun::RunSelector;
using aerun::Value;

namespace {
ParamList point(const std::string& method, int layers) {
  return {{"method", Value::parse(method)}, {"layers", Value::of_int(layers)}};
}
const std::vector<std::string> kNames = {"method", "layers"};
}  // namespace

TEST(RunSelector, KeepsRunsMatchingEveryKeyAndAnyValueOfAKey) {
  RunSelector s({"method=l2l", "layers=32", "layers=78"}, kNames);
  EXPECT_TRUE(s.keeps(point("l2l", 32), 0));
  EXPECT_TRUE(s.keeps(point("l2l", 78), 1));
  EXPECT_FALSE(s.keeps(point("l2l", 48), 0));
  EXPECT_FALSE(s.keeps(point("stronghold", 32), 0));
}

TEST(RunSelector, ComparesNumbersByValueAndSelectsRepeats) {
  RunSelector s({"layers=32.0", "repeat=1"}, kNames);
  EXPECT_TRUE(s.keeps(point("x", 32), 1));
  EXPECT_FALSE(s.keeps(point("x", 32), 0));
}

TEST(RunSelector, RejectsUnknownKeysWithASuggestionAndMalformedItems) {
  try {
    RunSelector s({"layer=3"}, kNames);
    FAIL();
  } catch (const aerun::InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("did you mean 'layers'"));
  }
  EXPECT_THROW(RunSelector({"layers"}, kNames), aerun::InputError);
  EXPECT_THROW(RunSelector({"=3"}, kNames), aerun::InputError);
}
