// `aerun case --dry-run` without a scheduler: the command of every planned run, one per line,
// written as it is planned (a sweep of any size in bounded memory).
#pragma once

#include <cstdio>

#include "aerun/case/case_spec.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

// Writes "# case NAME (FILE): workdir DIR", the commands, "# N runs" to out; returns N.
long long print_plan(const CaseSpec& spec, const RunSelector* selector, std::FILE* out);

// AERUN_DEMO_TRAIN=<the demo workload beside the aerun binary>, unless the environment already
// names one: the shipped demo cases run it as "$AERUN_DEMO_TRAIN".
EnvVars demo_workload_env();

}  // namespace aerun
