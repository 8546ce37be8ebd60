#include "aerun/sweep/run_key.hpp"

#include <string_view>

#include "aerun/record/system_key.hpp"
#include "aerun/util/sha256.hpp"

namespace aerun {

namespace {

// Appends "<length>:<bytes>" so field boundaries can never be confused.
void field(std::string& out, std::string_view s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
}

void list(std::string& out, const ParamList& l) {
  out += '#';
  out += std::to_string(l.size());
  for (const auto& [name, value] : l) {
    field(out, name);
    field(out, value.text());
  }
}

}  // namespace

std::string run_key(const std::string& case_name, const std::string& command,
                    const ParamList& params, const ParamList& env, int repeat_index,
                    const std::string& system) {
  std::string s;
  s.reserve(64 + case_name.size() + command.size() + 24 * (params.size() + env.size()));
  s += "aerun-run-key-v1";
  field(s, case_name);
  field(s, command);
  list(s, params);
  list(s, env);
  field(s, std::to_string(repeat_index));
  return key_on_system(sha256_hex(s), system);
}

}  // namespace aerun
