// A compiled pattern of the extractor and the literal every line it matches contains
// (extractor.cpp runs it only on lines where the shared literal pass found that literal).
#pragma once

#include <re2/re2.h>
#include <string.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "aerun/util/error.hpp"
#include "extract/linear_pattern.hpp"
#include "extract/short_bytes.hpp"

namespace aerun::extract_detail {

// One compiled pattern with the literal every matching line contains. When the pattern starts with
// that literal, every match starts at one of its occurrences, so the regex runs anchored there
// (cheap) instead of searching the whole line — and without RE2 at all when the pattern has a
// simple shape (LinearPattern, which gives the same match).
struct Matcher {
  static constexpr size_t npos = std::string_view::npos;
  std::unique_ptr<RE2> re;
  std::string literal;
  bool anchored = false;
  std::optional<LinearPattern> fast;  // only when anchored
  size_t known = 0;  // fast's leading bytes that finding the literal at hit has already checked

  // Offset of the literal's first occurrence in the line (0 without a literal), npos when absent:
  // the line cannot match.
  size_t first_hit(std::string_view line) const {
    if (literal.empty()) return 0;
    const char* p = find_bytes(line.data(), line.size(), literal.data(), literal.size());
    return p ? static_cast<size_t>(p - line.data()) : npos;
  }

  // Whether the line matches, given the literal's first occurrence at hit; fills cap with group 1.
  bool match(std::string_view line, size_t hit, re2::StringPiece* cap = nullptr) const {
    re2::StringPiece sub[2];
    const int n = cap ? 2 : 0;
    if (fast) {
      std::string_view got;
      // The literal at hit is known to be there (found by the shared pass or find_bytes).
      while (!fast->match_at(line, hit, &got, known)) {
        const size_t from = hit + 1;
        const char* p =
            find_bytes(line.data() + from, line.size() - from, literal.data(), literal.size());
        if (!p) return false;
        hit = static_cast<size_t>(p - line.data());
      }
      if (cap) *cap = re2::StringPiece(got.data(), got.size());
      return true;
    }
    if (!re2_match(line, hit, sub, n)) return false;
    if (cap) *cap = sub[1];
    return true;
  }

  // The same through RE2, with the whole match and the first n - 1 groups in sub[0, n). A pattern
  // that starts with its literal runs anchored at each occurrence from hit on (the leftmost match
  // starts at one of them): much cheaper than searching the line, captures included.
  bool re2_match(std::string_view line, size_t hit, re2::StringPiece* sub, int n) const {
    const re2::StringPiece text(line.data(), line.size());
    if (!anchored) return re->Match(text, 0, line.size(), RE2::UNANCHORED, sub, n);
    while (!re->Match(text, hit, line.size(), RE2::ANCHOR_START, sub, n)) {
      const size_t from = hit + 1;
      const char* p =
          find_bytes(line.data() + from, line.size() - from, literal.data(), literal.size());
      if (!p) return false;
      hit = static_cast<size_t>(p - line.data());
    }
    return true;
  }
};

// Compiles pattern (InputError at loc naming key when it is invalid, or has not want_groups
// capture groups; -1: any number), with its literal and, when anchored, its linear fast path.
Matcher compile(const std::string& pattern, const SourceLoc& loc, const std::string& key,
                int want_groups);

}  // namespace aerun::extract_detail
