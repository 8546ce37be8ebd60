// Runs a short command (sbatch, squeue, nvidia-smi, a case's provenance command, ...) and
// captures how it ended and what it printed, within a time limit.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace aerun {

// What a command did: whether it started, how it ended, what it printed.
struct CommandResult {
  bool started = false;          // false: not found or not executable (see error)
  std::optional<int> exit_code;  // when it exited
  std::optional<int> signal;     // when it was killed
  bool timed_out = false;        // killed after the time limit
  bool truncated = false;        // printed more than max_output_bytes (the rest was read, dropped)
  std::string out;
  std::string err;
  std::string error;  // why it could not start, e.g. "sbatch: not found in PATH"

  bool ok() const { return exit_code && *exit_code == 0; }
  // A one-line account for error messages: stderr's text, else stdout's, else how it ended.
  std::string message() const;
  // How it ended, in a few words: "exit code 1", "killed by signal 9", "timed out after 20 s",
  // "not found in PATH", ...; "" when it exited 0.
  std::string outcome(double timeout_s) const;
};

// How to run it: the environment ("NAME=value" entries; nullopt: this process's), the directory
// it starts in ("": this process's), its time limit and how much of each output is kept.
struct CommandSettings {
  double timeout_s = 60;
  std::optional<std::vector<std::string>> environment;
  std::string workdir;
  size_t max_output_bytes = 16u << 20;
  std::string stdin_file;  // read on stdin (LSF's bsub reads a job script there); "": /dev/null
};

// Runs argv[0] (searched in the PATH of the command's environment) with stdin from /dev/null (or
// how.stdin_file) in its own process group; kills the group after the time limit. Never throws for
// a failing command: the result says what happened.
CommandResult run_captured(const std::vector<std::string>& argv, const CommandSettings& how);
inline CommandResult run_captured(const std::vector<std::string>& argv, double timeout_s = 60) {
  CommandSettings how;
  how.timeout_s = timeout_s;
  return run_captured(argv, how);
}

// The file argv0 names in this PATH (a name with '/' is itself), or "" when none is executable.
std::string find_in_path(const std::string& argv0, const std::string& path);

}  // namespace aerun
