// Runs the planned runs of a case on this host: N at once, each timestamped, logged, measured and
// stored; reuses runs already done; stops cleanly on Ctrl-C / SIGTERM.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/run/executor.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

class Store;

struct RunnerOptions {
  int jobs = 1;
  bool force = false;          // re-run even runs that already succeeded
  bool rerun_failed = false;   // re-run every stored failure (default: only transient ones)
  std::string logs_dir;        // logs go to <logs_dir>/<case>/<key16>-a<attempt>.log
  bool tty = false;            // a live progress line instead of one line per event
  EnvVars env;                 // exported to every run, after the host's own
  double kill_grace_s = 5;     // SIGTERM -> SIGKILL delay for timeouts and interruptions
  long long session_id = 0;    // the session runs are made in (session.hpp)
  bool fresh_session = false;  // reuse only what this session already did (--label, --session new)
  // How long a finished run's result waits for a store locked by another process before aerun
  // stops with a SystemError (exit 4: the environment failed), naming the run and its log.
  double store_busy_limit_s = 600;
};

struct RunSummary {
  long long planned = 0;
  int reused = 0;  // already succeeded: not run again
  int ok = 0;
  int failed = 0;             // every status other than ok and interrupted
  int interrupted = 0;        // running when Ctrl-C / SIGTERM stopped them
  long long not_started = 0;  // planned, but never started because of a stop signal
  int kept = 0;         // failures kept as results from an earlier invocation (failure_policy.hpp)
  int busy = 0;         // still run by another aerun process when this one stopped
  int stop_signal = 0;  // SIGINT/SIGTERM that stopped the case, or 0

  // The exit status of the command that ran them: 128 + the stop signal; 1 when a run failed,
  // was kept as a failure, was interrupted or left to another aerun, or `blocked` runs never
  // started (a setup step failed); else 0.
  int exit_status(long long blocked = 0) const {
    if (stop_signal) return 128 + stop_signal;
    return failed > 0 || kept > 0 || interrupted > 0 || busy > 0 || blocked > 0 ? 1 : 0;
  }
};

class CaseRunner {
 public:
  // Calls its sink with each planned run, in order, until the sink returns false.
  using PlanSource = std::function<void(const std::function<bool(const PlannedRun&)>&)>;

  // exec: what starts the runs and tells the time (a fake in the run loop's unit tests).
  CaseRunner(const CaseSpec& spec, Store& store, RunnerOptions opts, std::ostream& out,
             Executor& exec = system_executor());
  RunSummary run(const std::vector<PlannedRun>& planned);
  // Streams: at most a window of runs (a few hundred) is held at once, whatever `total` is.
  RunSummary run(const PlanSource& source, long long total);

 private:
  const CaseSpec& spec_;
  Store& store_;
  RunnerOptions opts_;
  std::ostream& out_;
  Executor& exec_;
};

}  // namespace aerun
