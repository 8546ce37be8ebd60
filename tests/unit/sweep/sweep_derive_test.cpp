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

TEST(SweepDerive, GlobalBatchIsMicroBatchTimesDataParallelTimesAccumulation) {
  auto spec = make_case({list("mbs", {"1", "4"}), fixed("dp", "8"), list("gas", {"2", "16"})});
  spec.derive.push_back({"gbs", "mbs * dp * gas", at(7)});
  EXPECT_THAT(points(spec), ElementsAre("mbs=1 dp=8 gas=2 gbs=16", "mbs=1 dp=8 gas=16 gbs=128",
                                        "mbs=4 dp=8 gas=2 gbs=64", "mbs=4 dp=8 gas=16 gbs=512"));
}

TEST(SweepDerive, LaterFormulasUseEarlierDerivedValues) {
  auto spec = make_case({list("nodes", {"1", "2"}), fixed("gpus_per_node", "4"), fixed("tp", "2")});
  spec.derive.push_back({"world", "nodes * gpus_per_node", at(7)});
  spec.derive.push_back({"dp", "world / tp", at(8)});
  spec.derive.push_back({"half", "dp / 4", at(9)});
  EXPECT_THAT(points(spec), ElementsAre("nodes=1 gpus_per_node=4 tp=2 world=4 dp=2 half=0.5",
                                        "nodes=2 gpus_per_node=4 tp=2 world=8 dp=4 half=1"));
}

TEST(SweepDerive, ResultsKeepTheirTypesStringNumberBoolean) {
  auto spec = make_case({list("method", {"l2l", "zero"}), fixed("layers", "48")});
  spec.derive.push_back({"tag", "method // \"-\" // \"x\"", at(7)});
  spec.derive.push_back({"big", "layers > 40", at(8)});
  Sweep sweep(spec);
  std::vector<Value::Kind> kinds;
  sweep.for_each([&](const ParamList& p) {
    kinds = {p[2].second.kind(), p[3].second.kind()};
    EXPECT_EQ(p[2].second.text(), p[0].second.text() + "-x");
    EXPECT_EQ(p[3].second.text(), "true");
    return true;
  });
  EXPECT_THAT(kinds, ElementsAre(Value::Kind::String, Value::Kind::Bool));
}

TEST(SweepDerive, ABadFormulaNamesTheKeyAndLocation) {
  auto spec = make_case({list("mbs", {"1", "2"})});
  spec.derive.push_back({"gbs", "mbs * (2", SourceLoc{"/cases/fig.yaml", 21, 8}});
  try {
    Sweep s(spec);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "derive.gbs");
    EXPECT_THAT(e.what(), HasSubstr("/cases/fig.yaml:21:8: derive.gbs: bad formula"));
  }
}

TEST(SweepDerive, AnUnknownVariableIsNamedWithTheKnownOnes) {
  auto spec = make_case({list("mbs", {"1", "2"}), fixed("dp", "4")});
  spec.derive.push_back({"gbs", "mbs * dp * gas", SourceLoc{"/cases/fig.yaml", 22, 8}});
  try {
    Sweep s(spec);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "derive.gbs");
    EXPECT_THAT(e.what(), HasSubstr("fig.yaml:22:8: derive.gbs: unknown variable \"gas\""));
    EXPECT_THAT(e.what(), HasSubstr("(known: mbs, dp)"));
  }
}

TEST(SweepDerive, AFormulaCannotUseADerivedValueDefinedAfterIt) {
  auto spec = make_case({fixed("a", "1")});
  spec.derive.push_back({"b", "c + 1", at(4)});
  spec.derive.push_back({"c", "a + 1", at(5)});
  EXPECT_THROW(Sweep{spec}, InputError);
}

TEST(SweepDerive, ATypeMismatchIsFoundAtConstruction) {
  auto spec = make_case({list("method", {"l2l", "zero"})});
  spec.derive.push_back({"x", "method * 2", at(4)});
  EXPECT_THROW(Sweep{spec}, InputError);
}

TEST(SweepDerive, AParameterMixingNumbersAndTextIsSeenAsText) {
  auto spec = make_case({list("bs", {"4", "auto"})});
  spec.derive.push_back({"label", "\"bs=\" // bs", at(4)});
  EXPECT_THAT(points(spec), ElementsAre("bs=4 label=bs=4", "bs=auto label=bs=auto"));
}

}  // namespace
}  // namespace aerun
