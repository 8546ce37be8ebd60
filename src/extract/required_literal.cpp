#include "extract/required_literal.hpp"

#include <cctype>
#include <optional>
#include <vector>

namespace aerun {

namespace {

// One top-level element of a pattern: a literal character (or UTF-8 sequence) or anything else.
struct Atom {
  std::string text;
  bool literal = false;
};

bool is_ascii_punct(unsigned char c) {
  return c < 0x80 && std::ispunct(c);
}

// Index just past the class starting at p[i] == '[', or nullopt when it is unterminated.
std::optional<size_t> skip_class(std::string_view p, size_t i) {
  ++i;
  if (i < p.size() && p[i] == '^') ++i;
  if (i < p.size() && p[i] == ']') ++i;  // a leading ']' is a member
  while (i < p.size()) {
    if (p[i] == '\\') {
      i += 2;
    } else if (p[i] == '[' && i + 1 < p.size() && p[i + 1] == ':') {
      const size_t end = p.find(":]", i + 2);
      if (end == std::string_view::npos) return std::nullopt;
      i = end + 2;
    } else if (p[i] == ']') {
      return i + 1;
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

// Index just past the group starting at p[i] == '(', or nullopt when it is unbalanced.
std::optional<size_t> skip_group(std::string_view p, size_t i) {
  int depth = 0;
  while (i < p.size()) {
    const char c = p[i];
    if (c == '\\') {
      i += 2;
    } else if (c == '[') {
      auto end = skip_class(p, i);
      if (!end) return std::nullopt;
      i = *end;
    } else {
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return i + 1;
      ++i;
    }
  }
  return std::nullopt;
}

// Index just past a counted repetition "{n}", "{n,}" or "{n,m}" at p[i] == '{', or nullopt.
std::optional<size_t> skip_repetition(std::string_view p, size_t i) {
  size_t j = i + 1;
  const size_t digits_start = j;
  while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
  if (j == digits_start) return std::nullopt;
  if (j < p.size() && p[j] == ',') {
    ++j;
    while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
  }
  if (j < p.size() && p[j] == '}') return j + 1;
  return std::nullopt;
}

// Splits the top level of a pattern into atoms; nullopt when unsure (alternation, flags, ...).
std::optional<std::vector<Atom>> top_level_atoms(std::string_view p) {
  std::vector<Atom> atoms;
  auto quantify = [&](size_t& i, size_t past) -> bool {
    if (atoms.empty()) return false;
    atoms.back().literal = false;  // a quantified atom may be absent or repeated
    i = past;
    if (i < p.size() && (p[i] == '?' || p[i] == '+')) ++i;  // lazy / possessive suffix
    return true;
  };
  size_t i = 0;
  while (i < p.size()) {
    const auto c = static_cast<unsigned char>(p[i]);
    switch (c) {
      case '|':
      case ')':
        return std::nullopt;
      case '(': {
        if (i + 1 < p.size() && p[i + 1] == '?') {
          // (?:...) and (?P<name>...) are groups; so is (?flags:...), whose flags hold inside it
          // only (Slurm's "CANCELLED AT \S+ (?i:due to) TIME LIMIT"). A bare (?i) changes the
          // meaning of everything after it.
          size_t f = i + 2;
          while (f < p.size() && std::string_view("imsU-").find(p[f]) != std::string_view::npos)
            ++f;
          if (!(f < p.size() && (p[f] == ':' || (f == i + 2 && p[f] == 'P')))) return std::nullopt;
        }
        auto end = skip_group(p, i);
        if (!end) return std::nullopt;
        atoms.push_back({});
        i = *end;
        break;
      }
      case '[': {
        auto end = skip_class(p, i);
        if (!end) return std::nullopt;
        atoms.push_back({});
        i = *end;
        break;
      }
      case '.':
      case '^':
      case '$':
        atoms.push_back({});
        ++i;
        break;
      case '*':
      case '+':
      case '?':
        if (!quantify(i, i + 1)) return std::nullopt;
        break;
      case '{': {
        auto end = skip_repetition(p, i);
        if (!end || !quantify(i, *end)) return std::nullopt;
        break;
      }
      case '\\': {
        if (i + 1 >= p.size()) return std::nullopt;
        const auto d = static_cast<unsigned char>(p[i + 1]);
        if (is_ascii_punct(d)) {
          atoms.push_back({std::string(1, static_cast<char>(d)), true});
        } else if (std::string_view("dDwWsSbBAzCnrtfva").find(static_cast<char>(d)) !=
                   std::string_view::npos) {
          atoms.push_back({});
        } else {
          return std::nullopt;  // \x, \p, \Q...\E, octal: not worth decoding
        }
        i += 2;
        break;
      }
      default: {
        // A UTF-8 sequence is one atom, so a quantifier after it drops all of its bytes.
        size_t end = i + 1;
        if (c >= 0x80)
          while (end < p.size() && (static_cast<unsigned char>(p[end]) & 0xC0) == 0x80) ++end;
        atoms.push_back({std::string(p.substr(i, end - i)), true});
        i = end;
        break;
      }
    }
  }
  return atoms;
}

}  // namespace

std::string required_literal(std::string_view pattern) {
  auto atoms = top_level_atoms(pattern);
  if (!atoms) return {};
  std::string best, run;
  for (const auto& a : *atoms) {
    if (a.literal) {
      run += a.text;
      if (run.size() > best.size()) best = run;
    } else {
      run.clear();
    }
  }
  return best;
}

}  // namespace aerun

namespace aerun {

std::string prefix_literal(std::string_view pattern) {
  auto atoms = top_level_atoms(pattern);
  if (!atoms) return {};
  std::string run;
  for (const auto& a : *atoms) {
    if (!a.literal) break;
    run += a.text;
  }
  return run;
}

std::string search_literal(std::string_view pattern, bool* anchored) {
  std::string lit = prefix_literal(pattern);
  const bool prefix = lit.size() >= kMinPrefix;
  if (anchored) *anchored = prefix;
  return prefix ? lit : required_literal(pattern);
}

}  // namespace aerun
