// comma_items: the items of "a,b,c" lists (--sweep values, CLI11's fixed values, Slurm state
// flags).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/util/text_format.hpp"

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(CommaItems, GivesTheItemsInOrderWithoutEmptyOnes) {
  EXPECT_THAT(aerun::comma_items("16,32,48"), ElementsAre("16", "32", "48"));
  EXPECT_THAT(aerun::comma_items("a,,b,"), ElementsAre("a", "b"));
  EXPECT_THAT(aerun::comma_items("one"), ElementsAre("one"));
  EXPECT_THAT(aerun::comma_items(""), IsEmpty());
  EXPECT_THAT(aerun::comma_items(","), IsEmpty());
}
