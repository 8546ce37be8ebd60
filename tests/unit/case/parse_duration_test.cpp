// parse_duration(): the ways a timeout can be written.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"

namespace aerun {
namespace {

using ::testing::HasSubstr;

double seconds(const std::string& s) {
  return parse_duration(s, SourceLoc{"c.yaml", 3, 10}, "timeout");
}

TEST(ParseDuration, ReadsABareNumberAsSeconds) {
  EXPECT_DOUBLE_EQ(seconds("600"), 600);
  EXPECT_DOUBLE_EQ(seconds("2.5"), 2.5);
  EXPECT_DOUBLE_EQ(seconds("0"), 0);
}

TEST(ParseDuration, ReadsUnitSuffixes) {
  EXPECT_DOUBLE_EQ(seconds("90s"), 90);
  EXPECT_DOUBLE_EQ(seconds("10m"), 600);
  EXPECT_DOUBLE_EQ(seconds("2h"), 7200);
  EXPECT_DOUBLE_EQ(seconds("1d"), 86400);
  EXPECT_DOUBLE_EQ(seconds("1.5h"), 5400);
}

TEST(ParseDuration, AddsCombinedUnitsLargestFirst) {
  EXPECT_DOUBLE_EQ(seconds("1h30m"), 5400);
  EXPECT_DOUBLE_EQ(seconds("1h 30m 15s"), 5415);
  EXPECT_DOUBLE_EQ(seconds("2m30s"), 150);
}

TEST(ParseDuration, ReadsClockForms) {
  EXPECT_DOUBLE_EQ(seconds("1:30:00"), 5400);
  EXPECT_DOUBLE_EQ(seconds("30:00"), 1800);
  EXPECT_DOUBLE_EQ(seconds("0:00:05"), 5);
  EXPECT_DOUBLE_EQ(seconds("12:00:00"), 43200);
}

TEST(ParseDuration, IgnoresSurroundingSpaces) {
  EXPECT_DOUBLE_EQ(seconds(" 5m "), 300);
}

TEST(ParseDuration, RejectsMalformedDurations) {
  for (const char* bad :
       {"", "abc", "10x", "-5", "m", "30m1h", "1h1h", "1:75", "1:2:3:4", "1.5:00", "5 m s", "1e3"})
    EXPECT_THROW(seconds(bad), InputError) << bad;
}

TEST(ParseDuration, NamesTheFileLineAndKeyWhenItFails) {
  try {
    seconds("ten minutes");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("c.yaml:3:10: timeout: invalid duration 'ten minutes'"));
  }
}

}  // namespace
}  // namespace aerun
