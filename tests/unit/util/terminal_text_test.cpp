// What reaches a terminal (issue 28): text only, whatever a log, a file name or a store holds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "aerun/util/terminal_text.hpp"

namespace aerun {
namespace {

TEST(TerminalText, KeepsTextNewlinesTabsAndUtf8) {
  EXPECT_EQ(terminal_text("iter 10\tloss 2.3\n"), "iter 10\tloss 2.3\n");
  EXPECT_EQ(terminal_text("R² = 0.99 · 16 µs — 日本 🚀"), "R² = 0.99 · 16 µs — 日本 🚀");
}

TEST(TerminalText, ShowsControlCharactersAsText) {
  EXPECT_EQ(terminal_text("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(terminal_text("ok\rFAILED"), "ok\\x0dFAILED");  // no overwriting what was shown
  EXPECT_EQ(terminal_text("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
  EXPECT_EQ(terminal_text(std::string("a\0b\x7f\b", 5)), "a\\x00b\\x7f\\x08");
}

TEST(TerminalText, ShowsC1ControlsBidiOverridesAndBytesThatAreNotUtf8AsText) {
  EXPECT_EQ(terminal_text("\xc2\x9b"
                          "31m"),
            "\\u{009B}31m");  // 8-bit CSI
  EXPECT_EQ(terminal_text("\x9b"
                          "31m"),
            "\\x9b31m");  // a raw C1 byte
  EXPECT_EQ(terminal_text("ok\xe2\x80\xae"
                          "deliaf"),
            "ok\\u{202E}deliaf");                                        // right-to-left override
  EXPECT_EQ(terminal_text("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(terminal_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(terminal_text("\xe2\x82"), "\\xe2\\x82");                    // cut at the end
  EXPECT_EQ(terminal_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST(TerminalFilter, FiltersAStreamAndKeepsAUtf8SequenceCutBetweenTwoWrites) {
  std::stringbuf sink;
  {
    TerminalFilter f(&sink);
    std::ostream os(&f);
    os << "a\x1b[2J"
       << "b\xc2";
    os.flush();
    EXPECT_EQ(sink.str(), "a\\x1b[2Jb");  // the half of ² waits
    os << "\xb2\n";
    terminal_control(os, "\r\x1b[K");  // aerun's own control sequence passes
    os << "\xe2";                      // never completed: shown as a byte at the end
  }
  EXPECT_EQ(sink.str(), "a\\x1b[2Jb²\n\r\x1b[K\\xe2");
}

TEST(TerminalFilter, ControlSequencesToAStreamWithoutAFilterAreWrittenAsTheyAre) {
  std::ostringstream os;
  terminal_control(os, "\r\x1b[K");
  EXPECT_EQ(os.str(), "\r\x1b[K");
}

}  // namespace
}  // namespace aerun
