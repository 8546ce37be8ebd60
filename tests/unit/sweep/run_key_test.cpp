#include "aerun/sweep/run_key.hpp"

#include <gtest/gtest.h>

#include <set>

namespace aerun {
namespace {

const ParamList kParams{{"method", Value::parse("l2l")}, {"layers", Value::parse("78")}};
const ParamList kEnv{{"OMP_NUM_THREADS", Value::parse("8")}};

std::string base_key() {
  return run_key("fig7a", "./run.sh -m l2l -l 78", kParams, kEnv, 0);
}

TEST(RunKey, IsLowercaseHexSha256) {
  const std::string k = base_key();
  ASSERT_EQ(k.size(), 64u);
  EXPECT_EQ(k.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(RunKey, IsTheSameForTheSameInputs) {
  const ParamList params_copy = kParams;
  EXPECT_EQ(base_key(), run_key("fig7a", "./run.sh -m l2l -l 78", params_copy, kEnv, 0));
}

TEST(RunKey, ChangesWithEveryField) {
  ParamList other_value = kParams;
  other_value[1].second = Value::parse("79");
  ParamList other_name = kParams;
  other_name[1].first = "layer";
  ParamList reordered{kParams[1], kParams[0]};
  ParamList env2{{"OMP_NUM_THREADS", Value::parse("4")}};
  const std::set<std::string> keys{
      base_key(),
      run_key("fig7b", "./run.sh -m l2l -l 78", kParams, kEnv, 0),
      run_key("fig7a", "./run.sh -m l2l -l 79", kParams, kEnv, 0),
      run_key("fig7a", "./run.sh -m l2l -l 78", other_value, kEnv, 0),
      run_key("fig7a", "./run.sh -m l2l -l 78", other_name, kEnv, 0),
      run_key("fig7a", "./run.sh -m l2l -l 78", reordered, kEnv, 0),
      run_key("fig7a", "./run.sh -m l2l -l 78", kParams, env2, 0),
      run_key("fig7a", "./run.sh -m l2l -l 78", kParams, {}, 0),
      run_key("fig7a", "./run.sh -m l2l -l 78", kParams, kEnv, 1),
  };
  EXPECT_EQ(keys.size(), 9u);
}

TEST(RunKey, FieldBoundariesAreUnambiguous) {
  EXPECT_NE(run_key("ab", "c", {}, {}, 0), run_key("a", "bc", {}, {}, 0));
  const ParamList p1{{"a", Value::parse("b=c")}};
  const ParamList p2{{"a=b", Value::parse("c")}};
  EXPECT_NE(run_key("x", "y", p1, {}, 0), run_key("x", "y", p2, {}, 0));
  // A parameter cannot pass for an environment variable, or the other way round.
  EXPECT_NE(run_key("x", "y", p1, {}, 0), run_key("x", "y", {}, p1, 0));
  // Nor can the command absorb the start of the parameters.
  EXPECT_NE(run_key("x", "y1:a", {}, {}, 0), run_key("x", "y", {{"a", Value()}}, {}, 0));
}

}  // namespace
}  // namespace aerun
