// What discovery may look at on this machine: environment variables and the output of tools
// such as nvidia-smi. Both are functions so tests can describe a machine without having it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace aerun {

// The value of an environment variable, or nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
// The standard output of a tool run with these arguments, or nullopt when the tool is missing,
// fails (non-zero exit, killed) or exceeds its time limit.
using ToolRunner = std::function<std::optional<std::string>(const std::vector<std::string>& argv)>;

// This process's environment (getenv).
EnvLookup process_env();

// Runs argv[0] (searched in PATH) with stdin from /dev/null and stderr discarded, and returns
// its standard output when it exits 0 within timeout_s seconds; a tool that runs longer is
// killed (its whole process group) and reaped.
std::optional<std::string> run_tool(const std::vector<std::string>& argv, double timeout_s = 10);

// run_tool with the default time limit, as a ToolRunner.
ToolRunner system_tools();

}  // namespace aerun
