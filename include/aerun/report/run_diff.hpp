// `aerun diff RUN_A RUN_B`: what differs between two stored runs, as a reviewer reads it.
#pragma once

#include <string>

#include "aerun/record/env_record.hpp"
#include "aerun/record/run_record.hpp"

namespace aerun {

// The comparison of two runs, as text: which runs they are, then the parameters that differ,
// every metric of either with both values and the change (B against A, in %), the times
// (startup, wall, queue wait), and what differs in how they ran (command, case version and file
// digest, host, aerun version, git commit, scheduler, workdir) and in the environment a run set.
// Identical entries are counted, and listed too when `all`. `differs` tells whether anything
// but the metrics and times differs (what a run is, not what it measured). env_a / env_b: the
// environment records of the runs' sessions (null: none), compared last (env_record_diff.hpp).
struct RunDiff {
  std::string text;
  bool differs = false;
};
RunDiff diff_runs(const RunRecord& a, const RunRecord& b, bool all = false,
                  const EnvRecord* env_a = nullptr, const EnvRecord* env_b = nullptr);

}  // namespace aerun
