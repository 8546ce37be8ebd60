// Every text sink takes any bytes (issue 40, class 4): a log line with invalid UTF-8 becomes a
// status reason, a NUL or an ESC can be in a merged store's value, a `%` in a category. JSON stays
// valid and gives the bytes back; HTML, Markdown and LaTeX show them, never write them raw; gnuplot
// never reads a label as a format.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "aerun/util/gnuplot_text.hpp"
#include "aerun/util/text_format.hpp"

using namespace aerun;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// What a JSON string literal decodes to, PEP 383 style: \udcXX back to the byte XX.
std::string json_bytes(const std::string& literal) {
  std::string out;
  for (size_t i = 1; i + 1 < literal.size(); ++i) {
    if (literal.compare(i, 4, "\\udc") == 0) {
      out += static_cast<char>(std::stoi(literal.substr(i + 4, 2), nullptr, 16));
      i += 5;
    } else if (literal[i] == '\\' && literal[i + 1] == 'u') {
      out += static_cast<char>(std::stoi(literal.substr(i + 2, 4), nullptr, 16));
      i += 5;
    } else if (literal[i] == '\\') {
      const char e = literal[++i];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
    } else {
      out += literal[i];
    }
  }
  return out;
}

bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t n = valid_utf8_at(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

const std::string kOdd = std::string("loss \xff\xfe spike \xc3\x28 caf\xc3\xa9 \xe2\x82") +
                         std::string(1, '\0') + "\x1b[31m end";

}  // namespace

TEST(OddBytes, JsonIsValidUtf8AndGivesTheBytesBack) {
  const std::string j = json_string(kOdd);
  EXPECT_TRUE(valid_utf8(j));
  EXPECT_THAT(j, HasSubstr("\\udcff\\udcfe"));
  EXPECT_THAT(j, HasSubstr("caf\xc3\xa9"));  // valid UTF-8 stays as it is
  EXPECT_EQ(json_bytes(j), kOdd);
}

TEST(OddBytes, HtmlAndMarkdownNeverWriteAStrayByteOrAControl) {
  for (const std::string& shown : {html_escape(kOdd), md_cell(kOdd)}) {
    EXPECT_TRUE(valid_utf8(shown)) << shown;
    EXPECT_EQ(shown.find('\0'), std::string::npos);
    EXPECT_EQ(shown.find('\x1b'), std::string::npos);
    EXPECT_THAT(shown, HasSubstr("caf\xc3\xa9"));
  }
  EXPECT_THAT(md_cell(kOdd), HasSubstr("\\xff\\xfe"));
}

TEST(OddBytes, AHandGivenTicLabelsPercentIsNotAFormat) {
  EXPECT_EQ(gnuplot_tic_label("50% sparse"), "'50%% sparse'");
  EXPECT_EQ(gnuplot_string("50% sparse"), "'50% sparse'");  // a title is printed as it is
}
