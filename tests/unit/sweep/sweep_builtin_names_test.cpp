// Parameters named like muparserx built-ins (size, sum, max, pi, e, ...) in derive formulas and
// exclude conditions: the formula sees the parameter (formula_names.hpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/sweep/sweep.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/formula_names.hpp"
#include "sweep_test_support.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace aerun::testing;

TEST(SweepBuiltinNames, AParameterNamedSizeWorksInADerive) {
  auto spec = make_case({list("size", {"1", "4"}), fixed("dp", "8")});
  // size*dp: 1*8 = 8, 4*8 = 32; max(size, 2): 2, 4 (max is still the function)
  spec.derive.push_back({"gbs", "size * dp", at(7)});
  spec.derive.push_back({"atleast2", "max(size, 2)", at(8)});
  EXPECT_THAT(points(spec),
              ElementsAre("size=1 dp=8 gbs=8 atleast2=2", "size=4 dp=8 gbs=32 atleast2=4"));
}

TEST(SweepBuiltinNames, AParameterNamedPiOrEHidesTheConstant) {
  auto spec = make_case({fixed("pi", "3"), fixed("e", "2")});
  // 3 * 2 + 1e1 = 16 (the e of 1e1 is the exponent)
  spec.derive.push_back({"x", "pi * e + 1e1", at(7)});
  EXPECT_THAT(points(spec), ElementsAre("pi=3 e=2 x=16"));
}

TEST(SweepBuiltinNames, AnExcludeConditionOnSizeAndSum) {
  auto spec = make_case({list("size", {"1", "2", "3"}), list("sum", {"10", "20"})});
  // drops size + sum > 21: (2, 20) = 22 and (3, 20) = 23
  spec.excludes.push_back({{}, "size + sum > 21", SourceLoc{"/cases/fig.yaml", 20, 5}});
  EXPECT_THAT(points(spec),
              ElementsAre("size=1 sum=10", "size=1 sum=20", "size=2 sum=10", "size=3 sum=10"));
}

TEST(SweepBuiltinNames, EveryBuiltinOfTheLibraryCanNameAParameter) {
  for (const std::string& name : muparserx_builtins()) {
    auto spec = make_case({fixed(name, "3")});
    spec.derive.push_back({"twice", name + " * 2", at(7)});
    EXPECT_THAT(points(spec), ElementsAre(name + "=3 twice=6")) << name;
  }
}

// muparserx's unit postfix operators (n, m, k, M, G) once aborted aerun with an uncaught
// mup::ParserError as soon as a case had a formula and a parameter of one of these names (found by
// the hostile-input corpus: n and k are common parameter names).
TEST(SweepBuiltinNames, ParametersNamedLikeTheUnitOperatorsWorkInFormulas) {
  for (const std::string name : {"n", "m", "k", "M", "G"}) {
    auto spec = make_case({list(name, {"1", "4"})});
    spec.derive.push_back({"twice", name + " * 2", at(7)});
    spec.excludes.push_back({{}, name + " > 3", at(8)});
    EXPECT_THAT(points(spec), ElementsAre(name + "=1 twice=2")) << name;
  }
}

TEST(SweepBuiltinNames, AFunctionUsedAsAValueThatNoParameterDefinesIsAClearError) {
  auto spec = make_case({list("layers", {"1", "2"})});
  spec.derive.push_back({"x", "size * 2", SourceLoc{"/cases/fig.yaml", 9, 6}});
  try {
    Sweep s(spec);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/cases/fig.yaml:9:6: derive.x: bad formula \"size * 2\": "
                                    "'size' is a muparserx function, written here as a value"));
  }
}

}  // namespace
}  // namespace aerun
