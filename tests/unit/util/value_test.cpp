#include "aerun/util/value.hpp"

#include <gtest/gtest.h>

#include "aerun/util/sha256.hpp"
#include "aerun/util/shell_quote.hpp"

using aerun::Value;

TEST(Value, TypesYamlScalarsByTheirText) {
  EXPECT_EQ(Value::parse("32").kind(), Value::Kind::Int);
  EXPECT_EQ(Value::parse("1e-3").kind(), Value::Kind::Float);
  EXPECT_EQ(Value::parse("true").kind(), Value::Kind::Bool);
  EXPECT_EQ(Value::parse("megatron-lm").kind(), Value::Kind::String);
  EXPECT_EQ(Value::parse("inf").kind(), Value::Kind::String);
  EXPECT_DOUBLE_EQ(*Value::parse("2048").number(), 2048.0);
  EXPECT_FALSE(Value::parse("l2l").number().has_value());
}

TEST(Value, DoublesPrintShortestAndIntegralsWithoutFraction) {
  EXPECT_EQ(Value::of_double(16.0).text(), "16");
  EXPECT_EQ(Value::of_double(0.1).text(), "0.1");
  EXPECT_EQ(Value::of_double(1.5e-7).text(), "1.5e-07");
}

TEST(Value, OrdersNumbersByValueAndStringsNaturally) {
  EXPECT_LT(Value::parse("2"), Value::parse("10"));
  EXPECT_LT(Value::parse("ws-2"), Value::parse("ws-10"));
  EXPECT_TRUE(aerun::natural_less("log_l-9", "log_l-100"));
  EXPECT_FALSE(aerun::natural_less("b", "a"));
}

TEST(ShellQuote, LeavesSafeWordsAndQuotesEverythingElse) {
  EXPECT_EQ(aerun::shell_quote("megatron-lm"), "megatron-lm");
  EXPECT_EQ(aerun::shell_quote(""), "''");
  EXPECT_EQ(aerun::shell_quote("a b"), "'a b'");
  EXPECT_EQ(aerun::shell_quote("$(rm -rf /)"), "'$(rm -rf /)'");
  EXPECT_EQ(aerun::shell_quote("it's"), "'it'\\''s'");
}

TEST(Sha256, MatchesTheKnownDigestOfAbc) {
  EXPECT_EQ(aerun::sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
