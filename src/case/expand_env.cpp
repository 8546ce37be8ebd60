// `$VAR`, `${VAR}` and `${VAR:-default}` in a case's workdir, from aerun's environment.
#include <cctype>
#include <cstdlib>

#include "case/case_sections.hpp"

namespace aerun::detail {

std::string expand_env(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '$' || i + 1 >= s.size()) {
      out += s[i++];
      continue;
    }
    std::string name, fallback;
    bool has_fallback = false;
    size_t next = i + 1;
    if (s[next] == '{') {
      const size_t close = s.find('}', next);
      if (close == std::string::npos) {
        out += s.substr(i);
        break;
      }
      std::string inner = s.substr(next + 1, close - next - 1);
      if (const size_t d = inner.find(":-"); d != std::string::npos) {
        fallback = inner.substr(d + 2);
        inner.resize(d);
        has_fallback = true;
      }
      name = inner;
      next = close + 1;
    } else {
      while (next < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[next])) || s[next] == '_'))
        name += s[next++];
    }
    if (name.empty() || !is_identifier(name)) {
      out += s.substr(i, next - i);
    } else {
      const char* v = std::getenv(name.c_str());
      out += v && *v ? std::string(v) : has_fallback ? fallback : std::string();
    }
    i = next;
  }
  return out;
}

}  // namespace aerun::detail
