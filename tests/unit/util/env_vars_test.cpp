// EnvVars: the variables aerun adds to a run's environment.
#include "aerun/util/env_vars.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aerun {
namespace {

using ::testing::ElementsAre;

TEST(EnvVars, ALaterValueReplacesTheEarlierInItsPlace) {
  EnvVars v{{"A", "1"}, {"B", "2"}};
  set_vars(v, {{"C", "3"}, {"A", "x=y"}});
  EXPECT_THAT(v, ElementsAre(EnvVar{"A", "x=y"}, EnvVar{"B", "2"}, EnvVar{"C", "3"}));
  ASSERT_NE(find_var(v, "A"), nullptr);
  EXPECT_EQ(*find_var(v, "A"), "x=y");
  EXPECT_EQ(find_var(v, "D"), nullptr);
}

TEST(EnvVars, EntriesSplitAtTheFirstEqualsSign) {
  const EnvVars v = from_entries({"PATH=/bin", "OPTS=a=b", "broken", "EMPTY="});
  EXPECT_THAT(v, ElementsAre(EnvVar{"PATH", "/bin"}, EnvVar{"OPTS", "a=b"}, EnvVar{"EMPTY", ""}));
  EXPECT_THAT(to_entries(v), ElementsAre("PATH=/bin", "OPTS=a=b", "EMPTY="));
}

}  // namespace
}  // namespace aerun
