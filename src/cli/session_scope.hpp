// The session of one `aerun case` / `ingest` / `collect`: opened in the store before
// the first run is stored, closed when the invocation ends, whichever way it ends.
#pragma once

#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/probe/probe_cache.hpp"
#include "aerun/run/case_runner.hpp"
#include "aerun/store/session.hpp"
#include "aerun/store/store.hpp"

namespace aerun::cli {

// What --label / --session say: a label (a fresh session of that name, continued when it
// exists), or `new` (a fresh session named by its start time); neither: an interactive session
// in which earlier results are reused as before.
struct SessionArgs {
  std::string label;
  std::string session;
};

// The session's record: who, where, with which case files; kind is case | ingest | collect.
SessionInfo describe_session(const SessionArgs& a, const std::string& kind,
                             const std::vector<const CaseSpec*>& cases,
                             const std::string& scheduler, const std::string& workdir);

// Takes the environment record of the case's runs (this process's environment with `extra` and
// the case's `env:` on top, in its workdir; its `provenance:` commands), saves it and names it in
// s. The record is what `aerun show RUN --env` shows and `aerun diff` compares. Tool probes are
// reused from probe_cache() while nothing they depend on changed.
void record_environment(Store& store, SessionInfo& s, const CaseSpec& spec, const EnvVars& extra);

// How long a kept tool probe is reused at most when AERUN_ENV_CACHE does not say (a day: a
// nightly regression takes every probe again).
inline constexpr double kDefaultProbeCacheAge = 24 * 3600;
// The kept tool probes of this user on this host, as AERUN_ENV_CACHE in env says: "off" (none),
// a duration (their longest reuse), unset (kDefaultProbeCacheAge). Throws InputError for a value
// that is neither.
ProbeCache probe_cache(const EnvVars& env);

class SessionScope {
 public:
  SessionScope(Store& store, SessionInfo info);
  ~SessionScope();
  SessionScope(const SessionScope&) = delete;
  SessionScope& operator=(const SessionScope&) = delete;

  long long id() const { return info_.id; }
  bool fresh() const { return info_.fresh; }
  const std::string& label() const { return info_.label; }

 private:
  Store& store_;
  SessionInfo info_;
};

// What every local runner of an invocation shares: its session, where logs go, -j, --force and
// --rerun-failed.
RunnerOptions runner_options(const SessionScope& session, const std::string& logs_dir, int jobs,
                             bool force, bool rerun_failed);

}  // namespace aerun::cli
