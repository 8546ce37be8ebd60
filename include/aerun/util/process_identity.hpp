// Who a process is, beyond its pid (which the kernel reuses): the host, the boot, and when the
// process started. A run's claim records its aerun process's identity so that another aerun can
// tell a live claim from a dead one.
#pragma once

#include <string>
#include <vector>

namespace aerun {

struct ProcessIdentity {
  std::string host;
  int pid = 0;
  long long start_ticks = 0;  // /proc/<pid>/stat starttime: clock ticks since boot
  std::string boot_id;        // /proc/sys/kernel/random/boot_id
};

// This process.
const ProcessIdentity& self_identity();

// The start time of a process on this machine, 0 when it does not exist (or cannot be read).
long long process_start_ticks(int pid);

// The processes of this machine (this one aside) that have the pipe whose read end is read_fd
// open, found through /proc/<pid>/fd (those that can be read), by pid.
std::vector<int> pipe_holders(int read_fd);

// True when `owner` provably no longer runs: it ran on this host and this boot and its pid is
// gone or now belongs to a process started at another time, or it ran on this host before the
// last boot. Unknown (another host, no identity recorded) is never provably dead.
bool provably_dead(const ProcessIdentity& owner);

}  // namespace aerun
