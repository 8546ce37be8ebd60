// Which environment variables hold secrets, and the environment as recorded without them.
#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "aerun/probe/capture_environment.hpp"

namespace aerun {

bool secret_variable(const std::string& name) {
  static constexpr std::array<std::string_view, 7> kWords = {
      "TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL", "AUTH"};
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return std::any_of(kWords.begin(), kWords.end(),
                     [&](std::string_view w) { return upper.find(w) != std::string::npos; });
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
    if (secret_variable(v->name)) {
      out += kRedacted;
    } else {  // one line per variable: exported shell functions span lines
      for (char c : v->value) {
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
