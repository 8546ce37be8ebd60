// The shell lines that load a system's modules (issue 41). `module` is a shell function that Lmod
// and Environment Modules define from /etc/profile.d, which only a login shell reads: a batch job's
// script and the shell aerun starts a run in may not have it. So the first line makes `module`
// ready where it is missing (the init file of the module system found), and each `module ARGS`
// that fails ends the run at once (exit 95), saying which line of which profile, instead of the
// command running without its environment.
#pragma once

#include <string>
#include <vector>

#include "aerun/case/system_profile.hpp"

namespace aerun {

// The exit status of a run whose system set-up failed (a `module` line, or no module system).
inline constexpr int kSystemSetupFailed = 95;

// The lines for a profile's `environment.modules`, in order; none when it has none.
std::vector<std::string> module_lines(const SystemProfile& p);

}  // namespace aerun
