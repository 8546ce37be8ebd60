// Which batch scheduler: a case's `scheduler:`, `--scheduler`, and what discovery finds.
#pragma once

#include <string>

namespace aerun {

enum class Scheduler { None, Pbs, Slurm };  // None: no scheduler (local)

// "none" | "pbs" | "slurm".
std::string to_string(Scheduler s);
// The inverse of to_string ("local" is None too); throws InputError naming `key` for anything
// else.
Scheduler parse_scheduler(const std::string& name, const std::string& key = "scheduler");

}  // namespace aerun
