// scan_template: the one scanner of `{name}` templates (template_text.hpp).
#include "aerun/util/template_text.hpp"

#include <ostream>

namespace aerun {

namespace {

bool ident_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

// Length of a valid `{name}` at s[i] (s[i] == '{'), or 0.
size_t placeholder_length(std::string_view s, size_t i) {
  size_t j = i + 1;
  if (j >= s.size() || !ident_start(s[j])) return 0;
  while (j < s.size() && ident_char(s[j])) ++j;
  return j < s.size() && s[j] == '}' ? j + 1 - i : 0;
}

}  // namespace

std::vector<TemplatePiece> scan_template(std::string_view s) {
  std::vector<TemplatePiece> out;
  TemplatePiece literal;
  auto flush = [&] {
    if (!literal.text.empty()) out.push_back(std::move(literal));
    literal = TemplatePiece{};
  };
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    const size_t len = c == '{' && (i == 0 || s[i - 1] != '$') ? placeholder_length(s, i) : 0;
    if (len > 0) {
      flush();
      out.push_back({true, std::string(s.substr(i + 1, len - 2)), i});
      i += len;
      continue;
    }
    if (literal.text.empty()) literal.offset = i;
    literal.text += c;
    const bool doubled = (c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c;
    i += doubled ? 2 : 1;  // `{{` / `}}`: one literal brace
  }
  flush();
  return out;
}

std::vector<Placeholder> placeholders(std::string_view text) {
  std::vector<Placeholder> out;
  for (auto& p : scan_template(text))
    if (p.placeholder) out.push_back({std::move(p.text), p.offset});
  return out;
}

std::ostream& operator<<(std::ostream& os, const TemplatePiece& p) {
  if (p.placeholder) return os << "{" << p.text << "}@" << p.offset;
  return os << '"' << p.text << "\"@" << p.offset;
}

}  // namespace aerun
