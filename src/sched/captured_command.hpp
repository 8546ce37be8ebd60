// Runs a scheduler command (sbatch, squeue, qsub, ...) and captures its exit, stdout and stderr.
#pragma once

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
  std::string out;
  std::string err;
  std::string error;  // why it could not start, e.g. "sbatch: not found in PATH"

  bool ok() const { return exit_code && *exit_code == 0; }
  // A one-line account for error messages: stderr's text, else stdout's, else how it ended.
  std::string message() const;
};

// Runs argv[0] (searched in PATH) with stdin from /dev/null in its own process group; kills the
// group after timeout_s. Never throws for a failing command: the result says what happened.
CommandResult run_captured(const std::vector<std::string>& argv, double timeout_s = 60);

}  // namespace aerun
