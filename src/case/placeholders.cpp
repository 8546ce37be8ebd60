// Finding the `{name}` placeholders of a command template.
#include "aerun/case_loader.hpp"

namespace aerun {

namespace {
bool ident_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}
}  // namespace

std::vector<Placeholder> placeholders(const std::string& t) {
  std::vector<Placeholder> out;
  size_t i = 0;
  while (i < t.size()) {
    const bool doubled = i + 1 < t.size() && t[i + 1] == t[i];
    if ((t[i] == '{' || t[i] == '}') && doubled) {  // `{{` / `}}`: a literal brace
      i += 2;
      continue;
    }
    if (t[i] != '{' || (i > 0 && t[i - 1] == '$')) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    if (j < t.size() && ident_start(t[j])) {
      while (j < t.size() && ident_char(t[j])) ++j;
      if (j < t.size() && t[j] == '}') {
        out.push_back({t.substr(i + 1, j - i - 1), i});
        i = j + 1;
        continue;
      }
    }
    ++i;
  }
  return out;
}

}  // namespace aerun
