// CSV cells (RFC 4180), and the opt-in formula guard of --csv-safe (issue 28).
#include <gtest/gtest.h>

#include "aerun/util/text_format.hpp"

namespace aerun {
namespace {

// Turns the guard on for one test and off again.
struct FormulaGuard {
  FormulaGuard() { set_csv_formula_guard(true); }
  ~FormulaGuard() { set_csv_formula_guard(false); }
};

TEST(CsvField, QuotesCommasQuotesAndLineBreaksAndKeepsTheRestAsItIs) {
  EXPECT_EQ(csv_field("stronghold"), "stronghold");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("a\nb"), "\"a\nb\"");
  EXPECT_EQ(csv_field("=1+2"), "=1+2");  // without --csv-safe: the exact stored text
}

TEST(CsvField, WithTheGuardACellASpreadsheetWouldRunAsAFormulaStartsWithAQuote) {
  const FormulaGuard guard;
  EXPECT_EQ(csv_field("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  EXPECT_EQ(csv_field("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0");
  EXPECT_EQ(csv_field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csv_field("-x"), "'-x");
  EXPECT_EQ(csv_field("\tx"), "'\tx");
  // Numbers stay numbers.
  for (const char* n : {"-1.5", "+2", "-3e-05", "1E+10", "-.5"}) EXPECT_EQ(csv_field(n), n) << n;
  EXPECT_EQ(csv_field("-"), "'-");
}

}  // namespace
}  // namespace aerun
