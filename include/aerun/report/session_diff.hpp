// `aerun diff SESSION_A SESSION_B`: what differs between two sessions (two nights, two clusters):
// where and with what they ran, their environment records, and their runs side by side.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/record/env_record.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/report/run_diff.hpp"
#include "aerun/store/session.hpp"

namespace aerun {

// One session as compared: its row, its environment record (if any), and per run its latest
// attempt made in it (Store::session_runs over the session's cases).
struct SessionSide {
  SessionInfo info;
  std::optional<EnvRecord> env;
  std::vector<RunRecord> runs;
};

// The sessions' fields (host, cluster, scheduler, user, aerun, git commit and state, case files),
// the environment records, then the runs matched by key: how many are in both or one only, the
// runs whose status changed, and per metric the median over the runs both made ok, with B's
// change in %. `differs`: anything but the measurements differs (fields, records, which runs).
RunDiff diff_sessions(const SessionSide& a, const SessionSide& b, bool all = false);

}  // namespace aerun
