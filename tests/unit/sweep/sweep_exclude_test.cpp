#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/sweep/sweep.hpp"
#include "aerun/util/error.hpp"
#include "sweep_test_support.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace aerun::testing;

CaseSpec grid() {
  return make_case({list("method", {"l2l", "zero"}), list("layers", {"32", "64", "96"})});
}

ExcludeSpec match(std::vector<ParamSpec> members) {
  return {std::move(members), "", at(20)};
}
ExcludeSpec when(std::string condition, int line = 20) {
  return {{}, std::move(condition), SourceLoc{"/cases/fig.yaml", line, 5}};
}

TEST(SweepExclude, DropsPointsMatchingEveryValue) {
  auto spec = grid();
  spec.excludes.push_back(match({fixed("method", "l2l"), fixed("layers", "64")}));
  EXPECT_THAT(points(spec),
              ElementsAre("method=l2l layers=32", "method=l2l layers=96", "method=zero layers=32",
                          "method=zero layers=64", "method=zero layers=96"));
}

TEST(SweepExclude, AListMatchesAnyOfItsValues) {
  auto spec = grid();
  spec.excludes.push_back(match({fixed("method", "zero"), list("layers", {"32", "96"})}));
  EXPECT_THAT(points(spec), ElementsAre("method=l2l layers=32", "method=l2l layers=64",
                                        "method=l2l layers=96", "method=zero layers=64"));
}

TEST(SweepExclude, NumbersMatchByValueNotOnlyByText) {
  auto spec = grid();
  spec.excludes.push_back(match({fixed("layers", "64.0")}));
  EXPECT_EQ(Sweep(spec).count(), 4u);
}

TEST(SweepExclude, APointIsDroppedWhenAnyRuleMatches) {
  auto spec = grid();
  spec.excludes.push_back(match({fixed("layers", "32")}));
  spec.excludes.push_back(match({fixed("method", "zero")}));
  EXPECT_THAT(points(spec), ElementsAre("method=l2l layers=64", "method=l2l layers=96"));
}

TEST(SweepExclude, ByCondition) {
  auto spec = grid();
  spec.excludes.push_back(when("layers > 32 && method == \"l2l\""));
  EXPECT_THAT(points(spec), ElementsAre("method=l2l layers=32", "method=zero layers=32",
                                        "method=zero layers=64", "method=zero layers=96"));
}

TEST(SweepExclude, ByConditionOnABooleanParameter) {
  auto spec = make_case({list("offload", {"true", "false"}), list("layers", {"32", "64"})});
  spec.excludes.push_back(when("offload && layers > 32"));
  EXPECT_THAT(points(spec), ElementsAre("offload=true layers=32", "offload=false layers=32",
                                        "offload=false layers=64"));
}

TEST(SweepExclude, ByConditionOnADerivedValue) {
  auto spec = make_case({list("mbs", {"1", "2", "4"}), list("gas", {"1", "8"})});
  spec.derive.push_back({"gbs", "mbs * gas", at(5)});
  spec.excludes.push_back(when("gbs > 8"));
  EXPECT_THAT(points(spec), ElementsAre("mbs=1 gas=1 gbs=1", "mbs=1 gas=8 gbs=8",
                                        "mbs=2 gas=1 gbs=2", "mbs=4 gas=1 gbs=4"));
}

TEST(SweepExclude, ByValueOfADerivedParameter) {
  auto spec = make_case({list("mbs", {"1", "2"}), list("gas", {"2", "1"})});
  spec.derive.push_back({"gbs", "mbs * gas", at(5)});
  spec.excludes.push_back(match({fixed("gbs", "2")}));
  EXPECT_THAT(points(spec), ElementsAre("mbs=1 gas=1 gbs=1", "mbs=2 gas=2 gbs=4"));
}

TEST(SweepExclude, AppliesToIncludedPointsToo) {
  auto spec = grid();
  spec.includes.push_back({{fixed("method", "stronghold")}, at(9)});
  spec.excludes.push_back(when("layers == 96"));
  EXPECT_EQ(Sweep(spec).count(), 6u);
}

TEST(SweepExclude, ABadConditionNamesTheKeyAndLocation) {
  auto spec = grid();
  spec.excludes.push_back(match({fixed("layers", "32")}));
  spec.excludes.push_back(when("layers >> 3 &&", 31));
  try {
    Sweep s(spec);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "exclude[1]");
    EXPECT_THAT(e.what(), HasSubstr("/cases/fig.yaml:31:5: exclude[1]:"));
  }
}

TEST(SweepExclude, AConditionOnAnUnknownVariableIsRejected) {
  auto spec = grid();
  spec.excludes.push_back(when("nodes > 2", 33));
  try {
    Sweep s(spec);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "exclude[0]");
    EXPECT_THAT(e.what(), HasSubstr("fig.yaml:33:5: exclude[0]: unknown variable \"nodes\""));
  }
}

TEST(SweepExclude, AConditionGivingTextIsRejected) {
  auto spec = grid();
  spec.excludes.push_back(when("method"));
  EXPECT_THROW(Sweep{spec}, InputError);
}

TEST(SweepExclude, AMatchOnAnUnknownParameterIsRejected) {
  auto spec = grid();
  spec.excludes.push_back(match({fixed("nodes", "2", 40)}));
  try {
    Sweep s(spec);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "exclude[0].nodes");
    EXPECT_THAT(e.what(), HasSubstr("fig.yaml:40:3"));
  }
}

}  // namespace
}  // namespace aerun
