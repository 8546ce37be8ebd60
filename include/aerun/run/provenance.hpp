// Where and with what a run was made: host, aerun version, the workdir's git commit, clocks.
#pragma once

#include <string>

namespace aerun {

std::string host_name();
// HEAD of the git repository containing dir, with "-dirty" when it has local changes;
// "" when dir is not in a repository (or git is missing). An answer less than 5 s old is reused
// (the session and the runs of one invocation ask within moments).
std::string git_commit(const std::string& dir);
// The aerun binary running now (/proc/self/exe); "aerun" when it cannot be read.
std::string self_binary();
// Wall clock, Unix epoch seconds.
double wall_now();
// Monotonic clock, seconds.
double mono_now();

}  // namespace aerun
