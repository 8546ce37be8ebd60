// The literal text every match of a regex must contain, used to reject lines before running RE2.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace aerun {

// Returns the longest run of plain literal characters at the top level of an RE2 pattern (outside
// groups, classes and quantified atoms, with escaped punctuation unescaped), or "" when the pattern
// has top-level alternation, flags, or anything this parser is not sure about. Any line the
// pattern matches contains the returned text.
std::string required_literal(std::string_view pattern);

// The run of plain literal characters the pattern starts with (same rules), so every match begins
// with it: "lm loss: ([0-9.E+-]+)" -> "lm loss: ". Empty when the pattern starts otherwise.
std::string prefix_literal(std::string_view pattern);

// The literal the extractor looks for to find the lines a pattern may match: its prefix literal
// when that is at least kMinPrefix bytes (the match is then anchored there), else the literal every
// match contains. *anchored (when given) says which.
constexpr size_t kMinPrefix = 4;  // shorter prefixes filter too little; prefer the longest run
std::string search_literal(std::string_view pattern, bool* anchored = nullptr);

}  // namespace aerun
