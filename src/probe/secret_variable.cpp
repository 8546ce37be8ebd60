// Which environment variables hold secrets, and the environment as recorded without them.
#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "aerun/probe/capture_environment.hpp"
#include "aerun/util/secret_text.hpp"

namespace aerun {

bool secret_variable(const std::string& name) {
  return secret_name(name);
}

std::string redacted_environment(const EnvVars& env) {
  std::vector<const EnvVar*> sorted;
  for (const auto& v : env) sorted.push_back(&v);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const EnvVar* a, const EnvVar* b) { return a->name < b->name; });
  std::string out;
  for (const EnvVar* v : sorted) {
    out += v->name;
    out += '=';
    {  // one line per variable: exported shell functions span lines
      for (char c : shown_variable(v->name, v->value)) {
        if (c == '\n')
          out += "\\n";
        else
          out += c;
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace aerun
