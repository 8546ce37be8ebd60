// The one template language (template_text.hpp): which `{name}`s aerun substitutes, and the
// literal text between them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/util/template_text.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> names(const std::string& t) {
  std::vector<std::string> out;
  for (const auto& p : placeholders(t)) out.push_back(p.name);
  return out;
}

TEST(Placeholders, FindsEachNameInOrderWithTheOffsetOfItsBrace) {
  const auto ph = placeholders("run -m {method} -l {layers} -m {method}");
  ASSERT_EQ(ph.size(), 3u);
  EXPECT_EQ(ph[0].name, "method");
  EXPECT_EQ(ph[0].offset, 7u);
  EXPECT_EQ(ph[1].name, "layers");
  EXPECT_EQ(ph[1].offset, 19u);
  EXPECT_EQ(ph[2].name, "method");
  EXPECT_EQ(ph[2].offset, 31u);
}

TEST(Placeholders, LeavesShellVariablesInBracesToTheShell) {
  EXPECT_THAT(names("echo ${HOME}/{dir} $HOME ${PATH:-x}"), ElementsAre("dir"));
}

TEST(Placeholders, LeavesCommandSubstitutionToTheShell) {
  EXPECT_THAT(names("tag=$(date +%s) {x}"), ElementsAre("x"));
}

TEST(Placeholders, TreatsDoubledBracesAsLiteralBraces) {
  EXPECT_TRUE(placeholders("echo {{literal}}").empty());
  const auto ph = placeholders("{{{name}}}");
  ASSERT_EQ(ph.size(), 1u);
  EXPECT_EQ(ph[0].name, "name");
  EXPECT_EQ(ph[0].offset, 2u);
}

TEST(Placeholders, IgnoresAwkProgramsBecauseTheyAreNotIdentifiers) {
  EXPECT_TRUE(placeholders("awk '{print $1}' log.txt").empty());
  EXPECT_TRUE(placeholders("f() { :; }; {1x} {} {a-b} {a.b}").empty());
}

TEST(Placeholders, AcceptsUnderscoresAndDigitsAfterTheFirstCharacter) {
  EXPECT_THAT(names("{_a}{b_2}{C3}"), ElementsAre("_a", "b_2", "C3"));
}

TEST(Placeholders, IgnoresAnUnclosedBrace) {
  EXPECT_TRUE(placeholders("echo {name").empty());
}

TEST(ScanTemplate, CutsTheTextIntoLiteralsWithBracesUnescapedAndPlaceholders) {
  EXPECT_THAT(scan_template("a{{b}} {x}-${y}{{{z}}}"),
              ElementsAre(TemplatePiece{false, "a{b} ", 0}, TemplatePiece{true, "x", 7},
                          TemplatePiece{false, "-${y}{", 10}, TemplatePiece{true, "z", 17},
                          TemplatePiece{false, "}", 20}));
}

TEST(ScanTemplate, KeepsAwkAndShellGroupsAsTheyAre) {
  EXPECT_THAT(scan_template("awk '{print $1}'; f() { :; }"),
              ElementsAre(TemplatePiece{false, "awk '{print $1}'; f() { :; }", 0}));
  EXPECT_TRUE(scan_template("").empty());
}

}  // namespace
}  // namespace aerun
