// A session: one aerun invocation that runs, ingests or collects. Runs carry the
// session of their attempt; a nightly regression compares the runs of two sessions.
#pragma once

#include <optional>
#include <string>

namespace aerun {

struct SessionInfo {
  long long id = 0;
  std::string label;   // unique: --label, or the start time (2026-11-23T07:05:12Z)
  std::string kind;    // case | ingest | collect | migration
  bool fresh = false;  // every selected point runs anew (--session new, --label)
  double started_at = 0;
  std::optional<double> ended_at;
  std::string aerun_version, host, cluster, scheduler, user;
  std::string git_commit;         // of the workdir
  std::optional<bool> git_dirty;  // uncommitted changes there (nullopt: not a git repository)
  std::string cases;              // "name sha256" per line: the case files it ran
  std::string env_record;         // digest of its environment record (Store::env_record), or ""
  bool named = false;             // the label is the user's (not stored): continue, never rename
};

}  // namespace aerun
