// The tokens of one log line, as the generic reader sees them: words, numbers (with a unit glued
// to them or written after them), counters `a/b`, durations `01:02:03`, timestamps, progress-bar
// glyphs, punctuation and blanks. The key/value grammar (line_fields.hpp) reads these.
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

namespace aerun::logread {

// Whether v is a whole number a long long holds (false for inf, NaN and 1e300): the test every
// "is this a counter" rule asks, without the cast whose overflow is undefined.
inline bool is_whole(double v) {
  return std::fabs(v) < 9.0e18 && v == std::trunc(v);
}

enum class TokKind : uint8_t {
  Word,      // a key word: letters, digits inside, _ . / @ - between them; a quoted key
  Number,    // 12, -3.5e-4, '1.363' (quoted), 85.8G (SI suffix applied), 3ms/step (unit)
  Fraction,  // 120/1000, 120/ 1000: value and total
  Duration,  // 01:02, 1:02:03.5, 2d 03:04:05 is not one: value in seconds
  Stamp,     // 2024-01-01, 2024-01-01T12:00:00.123, 12:00:00,123 after a date: ignored
  Punct,     // one character: : = | , ; [ ] ( ) { } < > and the rest
  Bar,       // a run of progress-bar glyphs (█▌━ ... or === ### ...)
  Space,     // blanks: wide when two or more, or a tab
};

struct Token {
  TokKind kind = TokKind::Punct;
  bool wide = false;    // Space: 2+ blanks or a tab
  bool quoted = false;  // Word/Number written in quotes
  char punct = 0;       // Punct: the character
  uint32_t start = 0, len = 0;
  double value = 0;       // Number, Fraction (done), Duration (seconds)
  double total = 0;       // Fraction
  std::string_view unit;  // Number: its unit as written ("ms", "s", "%", "GB", "it/s", ...)
  std::string_view text;  // the token's text (a quoted word without its quotes)
};

// The value of a number's text (a leading `+` allowed): too big is inf, too small 0, as strtod.
double to_double(std::string_view s);

// The tokens of line, in order (out is cleared first). A line longer than kMaxTokenBytes is read on
// its first kMaxTokenBytes only (progress lines are short).
inline constexpr size_t kMaxTokenBytes = 4096;
void tokenize(std::string_view line, std::vector<Token>& out);

// Whether a and b are equal but for the case of ASCII letters.
bool iequals(std::string_view a, std::string_view b);

// The unit a word names when written after a number ("sec", "samples/s", "GB"), normalised, or
// empty when it is not a unit.
std::string_view unit_word(std::string_view w);

}  // namespace aerun::logread
