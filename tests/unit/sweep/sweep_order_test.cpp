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

TEST(SweepOrder, CrossesListsWithTheFirstAxisOutermost) {
  const auto spec = make_case({list("a", {"1", "2"}), fixed("f", "x"), list("b", {"p", "q", "r"})});
  EXPECT_THAT(points(spec), ElementsAre("a=1 f=x b=p", "a=1 f=x b=q", "a=1 f=x b=r", "a=2 f=x b=p",
                                        "a=2 f=x b=q", "a=2 f=x b=r"));
}

TEST(SweepOrder, OnlyFixedParametersGiveOnePoint) {
  const auto spec = make_case({fixed("hidden", "2048"), fixed("heads", "16")});
  EXPECT_THAT(points(spec), ElementsAre("hidden=2048 heads=16"));
}

TEST(SweepOrder, ACaseWithoutParametersIsOneRun) {
  Sweep sweep(make_case({}));
  EXPECT_EQ(sweep.count(), 1u);
  EXPECT_TRUE(sweep.names().empty());
}

TEST(SweepOrder, AOneEntryListIsSweptLikeAFixedValue) {
  EXPECT_THAT(points(make_case({list("a", {"7"}), list("b", {"1", "2"})})),
              ElementsAre("a=7 b=1", "a=7 b=2"));
}

TEST(SweepOrder, NamesAreParamsThenZipMembersThenDerived) {
  auto spec = make_case({fixed("hidden", "2048"), list("mbs", {"1", "2"})});
  spec.zips.push_back({{list("method", {"a", "b"}), list("layers", {"1", "2"})}, at(5)});
  spec.derive.push_back({"gbs", "mbs*2", at(9)});
  EXPECT_THAT(Sweep(spec).names(), ElementsAre("hidden", "mbs", "method", "layers", "gbs"));
}

TEST(SweepZip, MembersAdvanceTogetherAsOneAxisAfterTheParams) {
  auto spec = make_case({list("seed", {"1", "2"})});
  spec.zips.push_back({{list("tp", {"1", "2", "4"}), list("pp", {"8", "4", "2"})}, at(4)});
  EXPECT_THAT(points(spec),
              ElementsAre("seed=1 tp=1 pp=8", "seed=1 tp=2 pp=4", "seed=1 tp=4 pp=2",
                          "seed=2 tp=1 pp=8", "seed=2 tp=2 pp=4", "seed=2 tp=4 pp=2"));
}

TEST(SweepZip, TwoZipGroupsAreTwoAxesInOrder) {
  auto spec = make_case({});
  spec.zips.push_back({{list("a", {"1", "2"}), list("b", {"x", "y"})}, at(2)});
  spec.zips.push_back({{list("c", {"7", "8"}), list("d", {"u", "v"})}, at(5)});
  EXPECT_THAT(points(spec), ElementsAre("a=1 b=x c=7 d=u", "a=1 b=x c=8 d=v", "a=2 b=y c=7 d=u",
                                        "a=2 b=y c=8 d=v"));
}

TEST(SweepZip, UnequalLengthsAreRejectedWithTheGroupsLocation) {
  auto spec = make_case({});
  spec.zips.push_back({{list("tp", {"1", "2", "4"}), list("pp", {"8", "4"})}, at(12, 3)});
  try {
    Sweep s(spec);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "zip");
    EXPECT_EQ(e.loc().line, 12);
    EXPECT_THAT(e.what(), HasSubstr("/cases/fig.yaml:12:3: zip:"));
    EXPECT_THAT(e.what(), HasSubstr("tp has 3, pp has 2"));
  }
}

TEST(SweepValidation, ANameDefinedTwiceIsRejected) {
  auto spec = make_case({list("layers", {"1", "2"})});
  spec.zips.push_back({{list("layers", {"3", "4"}, 7), list("m", {"a", "b"})}, at(6)});
  EXPECT_THROW(Sweep{spec}, InputError);
}

TEST(SweepValidation, AnEmptyListIsRejectedNamingTheParameter) {
  try {
    Sweep s(make_case({list("layers", {}, 4)}));
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "layers");
    EXPECT_THAT(e.what(), HasSubstr("fig.yaml:4:3: layers:"));
  }
}

TEST(SweepInclude, CrossesItsOwnListsThenTheBaseAxesAndTakesFixedValues) {
  auto spec = make_case({fixed("hidden", "2048"), list("mbs", {"1", "2"}), fixed("opt", "adam")});
  spec.includes.push_back({{list("opt", {"sgd", "lamb"}), fixed("hidden", "4096")}, at(10)});
  EXPECT_THAT(points(spec),
              ElementsAre("hidden=2048 mbs=1 opt=adam", "hidden=2048 mbs=2 opt=adam",
                          "hidden=4096 mbs=1 opt=sgd", "hidden=4096 mbs=2 opt=sgd",
                          "hidden=4096 mbs=1 opt=lamb", "hidden=4096 mbs=2 opt=lamb"));
}

TEST(SweepInclude, NamingOneZipMemberLetsTheOthersAdvanceTogether) {
  auto spec = make_case({});
  spec.zips.push_back(
      {{list("m", {"a", "b"}), list("l", {"1", "2"}), list("w", {"4", "5"})}, at(2)});
  spec.includes.push_back({{fixed("l", "9")}, at(8)});
  EXPECT_THAT(points(spec),
              ElementsAre("m=a l=1 w=4", "m=b l=2 w=5", "m=a l=9 w=4", "m=b l=9 w=5"));
}

// STRONGHOLD artifact, Fig. 7a: each baseline at its largest trainable size, then STRONGHOLD at
// the same sizes with its own window.
TEST(SweepInclude, StrongholdFigure7aGivesTheSevenRunsOfTheNotebook) {
  auto spec = make_case({fixed("hidden", "2048"), fixed("window", "4")});
  spec.zips.push_back({{list("method", {"megatron-lm", "l2l", "zero-offload", "zero-infinity"}),
                        list("layers", {"32", "78", "48", "48"})},
                       at(6)});
  spec.includes.push_back(
      {{fixed("method", "stronghold"), list("layers", {"32", "48", "78"}), fixed("window", "15")},
       at(10)});
  Sweep sweep(spec);
  EXPECT_THAT(points(sweep), ElementsAre("hidden=2048 window=4 method=megatron-lm layers=32",
                                         "hidden=2048 window=4 method=l2l layers=78",
                                         "hidden=2048 window=4 method=zero-offload layers=48",
                                         "hidden=2048 window=4 method=zero-infinity layers=48",
                                         "hidden=2048 window=15 method=stronghold layers=32",
                                         "hidden=2048 window=15 method=stronghold layers=48",
                                         "hidden=2048 window=15 method=stronghold layers=78"));
  EXPECT_EQ(sweep.count(), 7u);
}

TEST(SweepInclude, PointsAlreadyProducedAreDropped) {
  auto spec = make_case({list("a", {"1", "2"}), list("b", {"x", "y"})});
  // (a=2,b=y) and (a=2,b=x) are base points; (a=3,b=x) is new; then a later include repeats it.
  spec.includes.push_back({{list("a", {"2", "3"}), fixed("b", "x")}, at(5)});
  spec.includes.push_back({{fixed("a", "3"), list("b", {"x", "z"})}, at(8)});
  EXPECT_THAT(points(spec),
              ElementsAre("a=1 b=x", "a=1 b=y", "a=2 b=x", "a=2 b=y", "a=3 b=x", "a=3 b=z"));
}

TEST(SweepInclude, RepeatedValuesInsideOneGridAreDroppedToo) {
  auto spec = make_case({list("a", {"1", "1", "2"})});
  spec.includes.push_back({{list("a", {"3", "3"})}, at(4)});
  EXPECT_THAT(points(spec), ElementsAre("a=1", "a=2", "a=3"));
}

TEST(SweepInclude, AnUnknownParameterIsRejectedWithItsKey) {
  auto spec = make_case({list("a", {"1", "2"})});
  spec.includes.push_back({{list("nodes", {"1", "2"}, 14)}, at(13)});
  try {
    Sweep s(spec);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "include[0].nodes");
    EXPECT_THAT(e.what(), HasSubstr("fig.yaml:14:3: include[0].nodes: unknown parameter"));
  }
}

TEST(SweepStreaming, StopsAsSoonAsTheCallbackReturnsFalse) {
  auto spec = make_case({list("a", {"1", "2", "3"}), list("b", {"1", "2", "3"})});
  spec.includes.push_back({{fixed("a", "9")}, at(4)});
  Sweep sweep(spec);
  int seen = 0;
  sweep.for_each([&](const ParamList&) { return ++seen < 4; });
  EXPECT_EQ(seen, 4);
}

TEST(SweepStreaming, CountsLargeSweepsWithoutStoringThem) {
  auto spec = make_case({});
  std::vector<std::string> hundred;
  for (int i = 0; i < 100; ++i) hundred.push_back(std::to_string(i));
  spec.params = {list("a", hundred), list("b", hundred), list("c", {"x", "y"})};
  EXPECT_EQ(Sweep(spec).count(), 20000u);
}

TEST(SweepStreaming, CanBeIteratedAgainWithTheSameResult) {
  auto spec = make_case({list("a", {"1", "2"}), list("b", {"x", "y"})});
  spec.derive.push_back({"c", "a*10", at(3)});
  Sweep sweep(spec);
  EXPECT_EQ(points(sweep), points(sweep));
}

}  // namespace
}  // namespace aerun
