// A described machine for discovery tests: environment variables and tool outputs by command.
#pragma once

#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "aerun/cluster/system_probe.hpp"

namespace aerun::testing {

inline std::string fixture(const std::string& name) {
  std::ifstream in(std::string(AERUN_FIXTURES) + "/cluster/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Environment and tools of a machine that is not this one; tools it lacks are "not installed".
struct FakeMachine {
  std::map<std::string, std::string> env;
  std::map<std::string, std::string> tools;  // "nvidia-smi -L" -> its output
  // Tools asked for, in order (shared with the runners handed out, which copy the rest).
  std::shared_ptr<std::vector<std::string>> asked = std::make_shared<std::vector<std::string>>();

  EnvLookup env_lookup() const {
    return [env = env](const std::string& n) -> std::optional<std::string> {
      const auto it = env.find(n);
      if (it == env.end()) return std::nullopt;
      return it->second;
    };
  }
  ToolRunner tool_runner() const {
    return [tools = tools,
            asked = asked](const std::vector<std::string>& argv) -> std::optional<std::string> {
      std::string cmd;
      for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
      asked->push_back(cmd);
      const auto it = tools.find(cmd);
      if (it == tools.end()) return std::nullopt;
      return it->second;
    };
  }
};

}  // namespace aerun::testing
