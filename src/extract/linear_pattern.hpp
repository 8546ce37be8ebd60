// An RE2-free matcher for the simple regex shapes metric patterns use, with RE2's exact results.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aerun {

// A regex made of literal text, character sets (\d, \s, [0-9.], ...) with ?, * or + quantifiers,
// at most one capture group and optional non-capturing groups — "lm loss: ([0-9.]+(?:[eE][+-]?
// [0-9]+)?)", "iteration\s+(\d+)/\s*\d+" — matched left to right without backtracking. It is
// recognised only when that gives exactly what RE2's leftmost-first match gives: every quantified
// set and optional group must be disjoint from whatever may follow it, so taking as much as
// possible is the only way to match. Anything else (alternation, anchors, \b, ., negated sets,
// counted repetition, flags, non-ASCII bytes, ...) is not recognised and stays with RE2.
class LinearPattern {
 public:
  // The pattern's matcher, or nullopt when the pattern is not of a recognised shape.
  static std::optional<LinearPattern> recognise(std::string_view pattern);

  // Whether a match starts exactly at text[pos] (like RE2::ANCHOR_START from pos); when it does
  // and the pattern has a capture group, *cap is set to the group's text. known: how many bytes
  // at text[pos] the caller has already found equal to the pattern's leading literal text (they
  // are not compared again).
  bool match_at(std::string_view text, size_t pos, std::string_view* cap = nullptr,
                size_t known = 0) const;

  // The literal text the pattern starts with ("" when it starts otherwise).
  std::string_view leading_text() const {
    return !items_.empty() && items_.front().kind == Item::Kind::Text ? items_.front().text
                                                                      : std::string_view();
  }

  // Number of capture groups (0 or 1).
  int groups() const { return groups_; }

  // One element of a sequence: fixed text, a quantified character set or a group.
  struct Item {
    enum class Kind { Text, Set, Group };
    Kind kind = Kind::Text;
    std::string text;               // Text
    std::array<uint64_t, 4> set{};  // Set: the bytes it accepts
    uint32_t min = 1, max = 1;      // Set: repetitions (max UINT32_MAX: unbounded)
    bool capture = false;           // Group: the capture group
    bool optional = false;          // Group: followed by '?'
    std::vector<Item> items;        // Group: its sequence
  };

 private:
  std::vector<Item> items_;
  int groups_ = 0;
};

}  // namespace aerun
