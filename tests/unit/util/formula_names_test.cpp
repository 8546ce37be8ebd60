// Case names that are also muparserx built-ins, renamed before the library sees a formula.
#include "aerun/util/formula_names.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aerun {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

TEST(FormulaNames, TheBuiltinsComeFromTheLibrary) {
  const auto& names = muparserx_builtins();
  // functions and constants every muparserx formula knows (its docs list them)
  for (const char* n : {"size", "sin", "min", "max", "sum", "sqrt", "pi", "e"})
    EXPECT_THAT(names, Contains(std::string(n)));
  EXPECT_TRUE(is_muparserx_builtin("size"));
  EXPECT_FALSE(is_muparserx_builtin("layers"));
}

TEST(FormulaNames, ACaseNameClashingWithABuiltinIsRenamedWhereItIsNotCalled) {
  EXPECT_EQ(formula_variable("size"), "_aerun_size");
  EXPECT_EQ(formula_variable("layers"), "layers");
  EXPECT_EQ(case_name_of("_aerun_size"), "size");
  EXPECT_EQ(case_name_of("layers"), "layers");
  // size is the parameter, max( the function; max is no case name here
  EXPECT_EQ(shield_formula("size * 2 + max(size, 3)", {"size", "layers"}),
            "_aerun_size * 2 + max(_aerun_size, 3)");
  // a parameter named max: the call stays the function, the value is the parameter
  EXPECT_EQ(shield_formula("max (max, 1)", {"max"}), "max (_aerun_max, 1)");
}

TEST(FormulaNames, NumbersAndStringsAreLeftAlone) {
  // the e of 1e3 and 2E-3 is an exponent; "size" is a string
  EXPECT_EQ(shield_formula("e * 1e3 + 2E-3 * e", {"e"}), "_aerun_e * 1e3 + 2E-3 * _aerun_e");
  EXPECT_EQ(shield_formula("size == \"size \\\" e\" ? e : 0", {"size", "e"}),
            "_aerun_size == \"size \\\" e\" ? _aerun_e : 0");
  // without a case name pi, pi is the constant
  EXPECT_EQ(shield_formula("2 * pi * r", {"r"}), "2 * pi * r");
}

TEST(FormulaNames, AFunctionWrittenAsAValueIsAProblemUnlessTheCaseDefinesIt) {
  EXPECT_THAT(bare_function_problem("size * 2", {"layers"}).value_or(""),
              HasSubstr("'size' is a muparserx function, written here as a value"));
  EXPECT_FALSE(bare_function_problem("size * 2", {"size"}));
  EXPECT_FALSE(bare_function_problem("sin(layers) + pi", {"layers"}));
}

}  // namespace
}  // namespace aerun
