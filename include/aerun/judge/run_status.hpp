// The names of a run's statuses, in one place: what aerun writes into the store and prints.
// A status stays a string (not an enum) because a case adds its own names with `status:`
// patterns (docs/presets.md); every name aerun itself gives is a constant here, with how much it
// explains a failure and whether running again may help.
#pragma once

#include <string_view>
#include <vector>

namespace aerun::run_status {

inline constexpr char ok[] = "ok";
inline constexpr char failed[] = "failed";
inline constexpr char incomplete[] = "incomplete";
inline constexpr char no_progress[] = "no_progress";
inline constexpr char timeout[] = "timeout";
inline constexpr char oom[] = "oom";
inline constexpr char host_oom[] = "host_oom";
inline constexpr char comm_error[] = "comm_error";
inline constexpr char node_failure[] = "node_failure";
inline constexpr char launcher_failed[] = "launcher_failed";
inline constexpr char launch_failed[] = "launch_failed";
inline constexpr char submit_failed[] = "submit_failed";
inline constexpr char cancelled[] = "cancelled";
inline constexpr char interrupted[] = "interrupted";
inline constexpr char stale[] = "stale";
inline constexpr char lost[] = "lost";
inline constexpr char stalled[] = "stalled";
inline constexpr char startup_timeout[] = "startup_timeout";
// Training ran but failed numerically: the loss became NaN or Inf and stayed so, or the loss scale
// reached its minimum (docs/presets.md, "diverged").
inline constexpr char diverged[] = "diverged";
// The file system was full or the quota reached (No space left on device, Disk quota exceeded).
inline constexpr char disk_full[] = "disk_full";
// The log is of no format the case's presets know (none of their signature lines, no progress
// line): aerun cannot tell whether the run progressed, so it does not say it did not.
inline constexpr char unknown_format[] = "unknown_format";
// Not final: a run in flight.
inline constexpr char running[] = "running";
inline constexpr char pending[] = "pending";

// How much a status explains a failure, for choosing among several log lines.
enum class Rank {
  Crash = 1,      // failed: a bare crash
  Outcome = 2,    // cancelled, launcher_failed, launch_failed, lost
  RootCause = 3,  // oom, comm_error, timeout, ..., and the case's own names
};

// One status aerun gives a finished run.
struct Info {
  std::string_view name;
  Rank rank;
  bool transient;  // the run may well succeed if it is simply run again
};

// Every final status aerun itself gives, in the order docs/presets.md lists them.
const std::vector<Info>& builtin();

// The entry of a built-in name, or nullptr (a case's own status, or not final).
const Info* find(std::string_view name);

}  // namespace aerun::run_status
