// Environment lookups and bounded runs of probing tools (nvidia-smi, rocm-smi, xpu-smi, ...).
#include "aerun/cluster/system_probe.hpp"

#include <cstdlib>

#include "aerun/util/captured_command.hpp"

namespace aerun {

EnvLookup process_env() {
  return [](const std::string& name) -> std::optional<std::string> {
    if (const char* v = std::getenv(name.c_str())) return std::string(v);
    return std::nullopt;
  };
}

std::optional<std::string> run_tool(const std::vector<std::string>& argv, double timeout_s) {
  if (argv.empty()) return std::nullopt;
  CommandSettings how;
  how.timeout_s = timeout_s;
  how.max_output_bytes = 1u << 20;  // more is not a tool's listing
  const CommandResult r = run_captured(argv, how);
  if (!r.ok() || r.truncated) return std::nullopt;  // missing, failed, too slow
  return r.out;
}

ToolRunner system_tools() {
  return [](const std::vector<std::string>& argv) { return run_tool(argv); };
}

}  // namespace aerun
