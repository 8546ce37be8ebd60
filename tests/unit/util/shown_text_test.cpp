// shown_text: a stored string as a person is shown it; the display sinks show values through it.
#include "aerun/util/shown_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/util/gnuplot_text.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(ShownText, AStringUpToTheLimitIsShownWhole) {
  EXPECT_EQ(shown_text("zero-offload", 12), "zero-offload");
  EXPECT_EQ(shown_text(std::string(kShownBytes, 'a')), std::string(kShownBytes, 'a'));
}

TEST(ShownText, ALongerOneIsItsStartAndItsSizeWithinTheLimit) {
  const std::string big(100'000'000, 'A');
  const std::string s = shown_text(big);
  EXPECT_LE(s.size(), kShownBytes);
  EXPECT_THAT(s, StartsWith(std::string(4000, 'A')));
  EXPECT_THAT(s, EndsWith("AAA\u2026 (100000000 bytes)"));
}

TEST(ShownText, NeverCutsAUtf8CharacterInHalf) {
  std::string s;
  for (int i = 0; i < 100; ++i) s += "\u00e9";  // 2 bytes each
  const std::string shown = shown_text(s, 40);  // 40 - 15 bytes of tail = 25: inside the 13th
  EXPECT_EQ(shown, std::string(s, 0, 24) + "\u2026 (200 bytes)");
}

TEST(ShownText, MarkdownCellsHtmlAndGnuplotLabelsShowAHugeValueByItsStart) {
  const std::string big = std::string(10'000'000, 'x') + "|end";
  EXPECT_LE(md_cell(big).size(), kShownBytes);
  EXPECT_THAT(md_cell(big), EndsWith("\u2026 (10000004 bytes)"));
  EXPECT_LE(gnuplot_string(big).size(), kShownLabelBytes + 2);  // and its two quotes
  EXPECT_THAT(gnuplot_string(big), HasSubstr("\u2026 (10000004 bytes)'"));
}

}  // namespace
}  // namespace aerun
