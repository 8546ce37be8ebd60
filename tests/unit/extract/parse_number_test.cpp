// parse_number: the numbers metric patterns capture, read as the nearest double, or refused.
#include "extract/parse_number.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace aerun {
namespace {

TEST(ParseNumber, ReadsTheNumbersOfMegatronLines) {
  EXPECT_EQ(parse_number("6123.0"), 6123.0);
  EXPECT_EQ(parse_number("9.934766E+00"), 9.934766);
  EXPECT_EQ(parse_number("1.406E-06"), 1.406e-06);
  EXPECT_EQ(parse_number(" 12.5 "), 12.5);
  EXPECT_EQ(parse_number("\t+1E-3"), 0.001);
  EXPECT_EQ(parse_number("0"), 0.0);
  EXPECT_EQ(parse_number("-3.25"), -3.25);
  EXPECT_EQ(parse_number("4096."), 4096.0);
  EXPECT_EQ(parse_number(".5"), 0.5);
}

TEST(ParseNumber, GivesTheNearestDoubleAsTheCompilerDoes) {
  // 2^53 + 1 is halfway between two doubles: ties go to the even one, 2^53.
  EXPECT_EQ(parse_number("9007199254740993"), 9007199254740992.0);
  EXPECT_EQ(parse_number("0.1"), 0.1);
  EXPECT_EQ(parse_number("1e23"), 1e23);
  EXPECT_EQ(parse_number("3.14159265358979323846"), 3.14159265358979323846);
  EXPECT_EQ(parse_number("123456789012345678901234567890e-10"), 123456789012345678901234567890e-10);
  EXPECT_EQ(parse_number("4.9e-324"), 4.9e-324);  // the smallest subnormal
  const auto minus_zero = parse_number("-0.0");
  ASSERT_TRUE(minus_zero);
  EXPECT_TRUE(*minus_zero == 0.0 && std::signbit(*minus_zero));
}

TEST(ParseNumber, ReadsTheValuesOfModernFrameworks) {
  EXPECT_EQ(parse_number("'2.345'"), 2.345);          // Transformers 5: {'loss': '2.345'}
  EXPECT_EQ(parse_number("\"0.5\""), 0.5);            // fairseq's JSON log
  EXPECT_EQ(parse_number("'9.289e+04'"), 9.289e+04);  // Transformers 5, 4 significant digits
  EXPECT_EQ(parse_number("5,756"), 5756);             // torchtitan: tps: 5,756
  EXPECT_EQ(parse_number("1,234,567.25"), 1234567.25);
  EXPECT_EQ(parse_number("11.5K"), 11500);  // nanotron's human_format
  EXPECT_EQ(parse_number("8.79K"), 8790);
  EXPECT_EQ(parse_number("1.6M"), 1.6e6);
  EXPECT_EQ(parse_number("85.8G"), 85.8e9);  // before April 2025
  EXPECT_EQ(parse_number("480B"), 480e9);    // since
  EXPECT_EQ(parse_number("3T"), 3e12);
  EXPECT_EQ(parse_number("2k"), 2000);  // tqdm's rates
}

TEST(ParseNumber, RefusesWhatIsNotOneFiniteNumber) {
  for (const char* bad :
       {"",    " ",    ".",      "-",    "+",     "1.2.3", "12a",   "1e",    "1e+",
        "e5",  "nan",  "inf",    "-inf", "1e400", "--1",   "+-1",   "0x10",  "1 2",
        "1,5", ",234", "1,23,4", "'2.3", "K",     "1KK",   "'nan'", "1e308K"})
    EXPECT_FALSE(parse_number(bad)) << '"' << bad << '"';
}

}  // namespace
}  // namespace aerun
