#include "extract/linear_pattern.hpp"

#include <cstring>

#include "extract/short_bytes.hpp"

namespace aerun {

namespace {

using Item = LinearPattern::Item;
using ByteSet = std::array<uint64_t, 4>;
constexpr uint32_t kUnbounded = UINT32_MAX;

void add(ByteSet& s, unsigned char c) {
  s[c >> 6] |= uint64_t{1} << (c & 63);
}
bool has(const ByteSet& s, unsigned char c) {
  return (s[c >> 6] >> (c & 63)) & 1;
}
bool intersects(const ByteSet& a, const ByteSet& b) {
  for (size_t i = 0; i < 4; ++i)
    if (a[i] & b[i]) return true;
  return false;
}
void unite(ByteSet& a, const ByteSet& b) {
  for (size_t i = 0; i < 4; ++i) a[i] |= b[i];
}

bool is_punct(unsigned char c) {
  return c > 0x20 && c < 0x7F &&
         !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
}

// RE2's Perl classes, ASCII only: \d = [0-9], \s = [\t\n\f\r ] (no \v).
bool add_perl_class(ByteSet& s, char c) {
  if (c == 'd') {
    for (unsigned char d = '0'; d <= '9'; ++d) add(s, d);
    return true;
  }
  if (c == 's') {
    for (const unsigned char w : {'\t', '\n', '\f', '\r', ' '}) add(s, w);
    return true;
  }
  return false;
}

// A recursive-descent parser for the recognised subset; any doubt makes it fail.
class Parser {
 public:
  explicit Parser(std::string_view p) : p_(p) {}

  bool parse(std::vector<Item>& out, int& groups) {
    if (!sequence(out, 0) || i_ != p_.size()) return false;
    groups = groups_;
    return true;
  }

 private:
  std::string_view p_;
  size_t i_ = 0;
  int groups_ = 0;

  bool at_end() const { return i_ >= p_.size(); }
  unsigned char peek() const { return static_cast<unsigned char>(p_[i_]); }

  bool sequence(std::vector<Item>& out, int depth) {
    while (!at_end() && peek() != ')') {
      Item atom;
      bool single_char = false;
      if (!parse_atom(atom, depth, single_char)) return false;
      char q = 0;
      if (!at_end() && (peek() == '?' || peek() == '*' || peek() == '+')) q = p_[i_++];
      if (!at_end() && (peek() == '?' || peek() == '*' || peek() == '+' || peek() == '{'))
        return false;  // lazy, stacked or counted repetition
      if (q == 0) {
        if (single_char && !out.empty() && out.back().kind == Item::Kind::Text)
          out.back().text += atom.text;
        else
          out.push_back(std::move(atom));
        continue;
      }
      if (atom.kind == Item::Kind::Group) {
        if (atom.capture || q != '?') return false;
        atom.optional = true;
      } else {
        if (atom.kind == Item::Kind::Text) {  // one quantified character: a one-byte set
          const auto c = static_cast<unsigned char>(atom.text[0]);
          atom = Item{};
          atom.kind = Item::Kind::Set;
          add(atom.set, c);
        }
        atom.min = q == '+' ? 1 : 0;
        atom.max = q == '?' ? 1 : kUnbounded;
      }
      out.push_back(std::move(atom));
    }
    return true;
  }

  bool parse_atom(Item& atom, int depth, bool& single_char) {
    const unsigned char c = peek();
    if (c >= 0x80) return false;
    switch (c) {
      case '|':
      case '^':
      case '$':
      case '.':
      case '{':
      case '}':
      case ']':
      case '*':
      case '+':
      case '?':
        return false;
      case '\\': {
        if (i_ + 1 >= p_.size()) return false;
        const char e = p_[i_ + 1];
        i_ += 2;
        if (is_punct(static_cast<unsigned char>(e))) {
          atom.text.assign(1, e);
          single_char = true;
          return true;
        }
        atom.kind = Item::Kind::Set;
        return add_perl_class(atom.set, e);
      }
      case '[':
        ++i_;
        atom.kind = Item::Kind::Set;
        return parse_class(atom.set);
      case '(':
        return parse_group(atom, depth);
      default:
        ++i_;
        atom.text.assign(1, static_cast<char>(c));
        single_char = true;
        return true;
    }
  }

  // After '[': plain bytes, ranges, \d, \s and escaped punctuation, up to ']'.
  bool parse_class(ByteSet& set) {
    if (at_end() || peek() == '^' || peek() == ']') return false;
    bool any = false;
    while (!at_end() && peek() != ']') {
      unsigned char lo = peek();
      if (lo >= 0x80 || lo == '[') return false;
      if (lo == '\\') {
        if (i_ + 1 >= p_.size()) return false;
        const char e = p_[i_ + 1];
        i_ += 2;
        if (!is_punct(static_cast<unsigned char>(e))) {
          if (!add_perl_class(set, e)) return false;
          any = true;
          continue;
        }
        lo = static_cast<unsigned char>(e);
      } else {
        ++i_;
      }
      if (i_ + 1 < p_.size() && peek() == '-' && p_[i_ + 1] != ']') {
        const auto hi = static_cast<unsigned char>(p_[i_ + 1]);
        if (hi >= 0x80 || hi == '\\' || hi == '[' || hi < lo) return false;
        i_ += 2;
        for (unsigned c = lo; c <= hi; ++c) add(set, static_cast<unsigned char>(c));
      } else {
        add(set, lo);
      }
      any = true;
    }
    if (at_end()) return false;
    ++i_;  // ']'
    return any;
  }

  // At '(': a capture group (top level only, one at most) or "(?:" ... ")".
  bool parse_group(Item& atom, int depth) {
    ++i_;
    atom.kind = Item::Kind::Group;
    if (!at_end() && peek() == '?') {
      if (p_.substr(i_, 2) != "?:") return false;
      i_ += 2;
    } else {
      if (depth > 0 || ++groups_ > 1) return false;
      atom.capture = true;
    }
    if (!sequence(atom.items, depth + 1) || at_end() || peek() != ')') return false;
    ++i_;
    return true;
  }
};

bool nullable(const Item& it);

bool nullable(const std::vector<Item>& items) {
  for (const Item& it : items)
    if (!nullable(it)) return false;
  return true;
}

bool nullable(const Item& it) {
  switch (it.kind) {
    case Item::Kind::Text:
      return it.text.empty();
    case Item::Kind::Set:
      return it.min == 0;
    case Item::Kind::Group:
      return it.optional || nullable(it.items);
  }
  return false;
}

ByteSet first(const Item& it);

// The bytes a match of the sequence may start with (not counting the empty match).
ByteSet first(const std::vector<Item>& items) {
  ByteSet s{};
  for (const Item& it : items) {
    unite(s, first(it));
    if (!nullable(it)) break;
  }
  return s;
}

ByteSet first(const Item& it) {
  ByteSet s{};
  switch (it.kind) {
    case Item::Kind::Text:
      if (!it.text.empty()) add(s, static_cast<unsigned char>(it.text[0]));
      return s;
    case Item::Kind::Set:
      return it.set;
    case Item::Kind::Group:
      return first(it.items);
  }
  return s;
}

// Whether greedy left-to-right matching is RE2's match: each quantified set and optional group is
// disjoint from the first bytes of what may follow it (follow: what may come after the sequence).
bool deterministic(const std::vector<Item>& items, ByteSet follow) {
  ByteSet after = follow;
  for (size_t k = items.size(); k-- > 0;) {
    const Item& it = items[k];
    if (it.kind == Item::Kind::Set && it.min != it.max && intersects(it.set, after)) return false;
    if (it.kind == Item::Kind::Group) {
      if (it.optional && intersects(first(it.items), after)) return false;
      if (!deterministic(it.items, after)) return false;
    }
    ByteSet next = first(it);
    if (nullable(it)) unite(next, after);
    after = next;
  }
  return true;
}

constexpr size_t kFail = static_cast<size_t>(-1);

// Matches items [first, last) at text[pos]; returns the end of the match or kFail.
size_t match_items(const Item* first, const Item* last, std::string_view text, size_t pos,
                   std::string_view* cap) {
  for (const Item* p = first; p != last; ++p) {
    const Item& it = *p;
    switch (it.kind) {
      case Item::Kind::Text:
        if (text.size() - pos < it.text.size() ||
            !same_bytes(text.data() + pos, it.text.data(), it.text.size()))
          return kFail;
        pos += it.text.size();
        break;
      case Item::Kind::Set: {
        uint32_t n = 0;
        while (n < it.max && pos < text.size() &&
               has(it.set, static_cast<unsigned char>(text[pos]))) {
          ++pos;
          ++n;
        }
        if (n < it.min) return kFail;
        break;
      }
      case Item::Kind::Group: {
        const size_t end =
            match_items(it.items.data(), it.items.data() + it.items.size(), text, pos, nullptr);
        if (end == kFail) {
          if (!it.optional) return kFail;
          break;
        }
        if (it.capture && cap) *cap = text.substr(pos, end - pos);
        pos = end;
        break;
      }
    }
  }
  return pos;
}

}  // namespace

std::optional<LinearPattern> LinearPattern::recognise(std::string_view pattern) {
  LinearPattern lp;
  if (!Parser(pattern).parse(lp.items_, lp.groups_)) return std::nullopt;
  if (!deterministic(lp.items_, ByteSet{})) return std::nullopt;
  return lp;
}

bool LinearPattern::match_at(std::string_view text, size_t pos, std::string_view* cap,
                             size_t known) const {
  if (pos > text.size()) return false;
  std::string_view got;
  size_t end;
  if (known > 0 && !items_.empty() && items_.front().kind == Item::Kind::Text &&
      known <= items_.front().text.size() && text.size() - pos >= items_.front().text.size()) {
    // The first `known` bytes of the leading text are already checked: compare the rest, then
    // match the other items.
    const std::string& lead = items_.front().text;
    if (!same_bytes(text.data() + pos + known, lead.data() + known, lead.size() - known))
      return false;
    end = match_items(items_.data() + 1, items_.data() + items_.size(), text, pos + lead.size(),
                      &got);
  } else {
    end = match_items(items_.data(), items_.data() + items_.size(), text, pos, &got);
  }
  if (end == kFail) return false;
  if (cap) *cap = got;
  return true;
}

}  // namespace aerun
