// EnvVars (env_vars.hpp).
#include "aerun/util/env_vars.hpp"

extern char** environ;

namespace aerun {

void set_var(EnvVars& vars, const std::string& name, const std::string& value) {
  for (auto& v : vars)
    if (v.name == name) {
      v.value = value;
      return;
    }
  vars.push_back({name, value});
}

void set_vars(EnvVars& vars, const EnvVars& more) {
  for (const auto& v : more) set_var(vars, v.name, v.value);
}

const std::string* find_var(const EnvVars& vars, const std::string& name) {
  for (const auto& v : vars)
    if (v.name == name) return &v.value;
  return nullptr;
}

std::string var_value(const EnvVars& vars, const std::string& name) {
  const std::string* v = find_var(vars, name);
  return v ? *v : "";
}

std::vector<std::string> to_entries(const EnvVars& vars) {
  std::vector<std::string> out;
  out.reserve(vars.size());
  for (const auto& v : vars) out.push_back(v.name + "=" + v.value);
  return out;
}

EnvVars from_entries(const std::vector<std::string>& entries) {
  EnvVars out;
  for (const auto& e : entries) {
    const size_t eq = e.find('=');
    if (eq != std::string::npos) out.push_back({e.substr(0, eq), e.substr(eq + 1)});
  }
  return out;
}

EnvVars process_environment() {
  EnvVars out;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    const size_t eq = entry.find('=');
    if (eq != std::string::npos) out.push_back({entry.substr(0, eq), entry.substr(eq + 1)});
  }
  return out;
}

}  // namespace aerun
