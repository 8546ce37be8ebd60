// Environment variables aerun gives a run on top of the host's (the demo workload, a launcher's
// rendezvous variables): names and values kept apart, a later value of a name replacing the
// earlier one. They become "NAME=value" entries only at exec (ChildProcess) and `export` lines
// only in job scripts.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace aerun {

struct EnvVar {
  std::string name, value;
  bool operator==(const EnvVar&) const = default;
};
using EnvVars = std::vector<EnvVar>;

// Sets name to value: the earlier entry of the name is replaced in place, else one is appended.
void set_var(EnvVars& vars, const std::string& name, const std::string& value);
// Sets every variable of `more`, in order.
void set_vars(EnvVars& vars, const EnvVars& more);
// The value of name, or nullptr.
const std::string* find_var(const EnvVars& vars, const std::string& name);
// The value of name, "" when it is not set.
std::string var_value(const EnvVars& vars, const std::string& name);

// "NAME=value" entries (an environ), and back (an entry without '=' is skipped).
std::vector<std::string> to_entries(const EnvVars& vars);
EnvVars from_entries(const std::vector<std::string>& entries);
// The environment of this process.
EnvVars process_environment();

inline std::ostream& operator<<(std::ostream& os, const EnvVar& v) {
  return os << v.name << "=" << v.value;
}

}  // namespace aerun
