// Which batch scheduler: a case's `scheduler:`, `--scheduler`, and what discovery finds. What each
// one does is its backend's (include/aerun/sched/scheduler_backend.hpp); here are only the names.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace aerun {

enum class Scheduler { None, Pbs, Slurm, Lsf, Flux };  // None: no scheduler (local)

// "none" | "pbs" | "slurm" | "lsf" | "flux".
std::string to_string(Scheduler s);
// The inverse of to_string ("local" is None too); throws InputError naming `key` for anything
// else.
Scheduler parse_scheduler(const std::string& name, const std::string& key = "scheduler");
// The batch schedulers' names, in the order messages list them ("slurm", "pbs", "lsf", "flux").
std::span<const char* const> batch_scheduler_names();
// What a case's `scheduler:`, a profile's and `aerun case --scheduler` may say: the batch
// schedulers' names, then "local".
const std::vector<std::string>& case_scheduler_names();
// "slurm, pbs, lsf, flux or local": the same, for messages.
std::string scheduler_choices();

}  // namespace aerun
