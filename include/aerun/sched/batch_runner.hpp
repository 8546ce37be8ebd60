// Runs a case's planned runs through a batch scheduler: writes their job scripts, submits them
// (a sweep as one job array where that fits, else one job per run under a queue cap), stores
// the job ids, and follows the jobs until they end unless told not to wait.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/judge/failure_policy.hpp"
#include "aerun/run/executor.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/sched/job_follower.hpp"
#include "aerun/sched/scheduler_client.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

class Store;

struct BatchOptions {
  bool wait = true;            // follow the jobs until they end (false: submit and return)
  int max_queued = 0;          // jobs in the queue at once (0 = no cap); caps array tasks too
  bool force = false;          // re-run runs that already succeeded
  bool rerun_failed = false;   // resubmit every stored failure (default: transient ones only)
  std::string logs_dir;        // logs, stamps and scripts under <logs_dir>/<case>/
  EnvVars env;                 // exported in every job
  std::string aerun_binary;    // written into the scripts (launch line, stamp-output)
  long long session_id = 0;    // the session runs are made in (session.hpp)
  bool fresh_session = false;  // reuse only what this session already did
  FollowOptions follow;
  // A submission refused because the scheduler was busy or out of reach
  // (SchedulerClient::transient) is tried again, up to submit_tries times in all, after
  // submit_backoff_s, then twice that, ...
  int submit_tries = 5;
  double submit_backoff_s = 2;
  // The jobs a run's job starts only after (its setup steps' jobs in flight); a job of several
  // runs waits for every one of theirs. Null: none.
  std::function<std::vector<std::string>(const PlannedRun&)> after_ok;
};

struct BatchSummary {
  int planned = 0;
  int reused = 0;     // already ok: not submitted again
  int kept = 0;       // failures kept as results (failure_policy.hpp): not submitted again
  int followed = 0;   // already submitted earlier and still queued: followed, not resubmitted
  int busy = 0;       // being run right now by a local aerun process
  int submitted = 0;  // runs submitted now
  int jobs = 0;       // jobs (arrays count once) submitted now
  int submit_failed = 0;
  int not_submitted = 0;  // left for later by --max-queued with --no-wait
  int ok = 0;
  int failed = 0;          // finished with any status but ok (a retried attempt not counted)
  int retried = 0;         // transient failures submitted again (the case's `retries:`)
  int submit_retries = 0;  // submissions tried again because the scheduler was busy
  int held = 0;            // jobs a per-user limit held back until earlier ones ended
  int outstanding = 0;     // still pending or running when run() returned
  int stop_signal = 0;
  std::string last_error;  // a submission's or query's error, for the exit message

  // The exit status of the command: 128 + the stop signal; 1 when a submission failed, a run
  // failed, was kept as a failure or left to a local aerun, `blocked` runs were not submitted (a
  // setup step failed), or (waiting for them) some are still queued; else 0.
  int exit_status(bool waited, long long blocked = 0) const {
    if (stop_signal) return 128 + stop_signal;
    return submit_failed > 0 || failed > 0 || kept > 0 || busy > 0 || blocked > 0 ||
                   (waited && outstanding > 0)
               ? 1
               : 0;
  }
};

// A job to submit: its runs (one, or an array), name, script path and output pattern.
struct BatchJob {
  std::string name;
  std::string script_path;
  std::string tasks_path;  // an array's task table, beside the script (absolute); "": one run
  std::vector<const PlannedRun*> runs;
  std::vector<int> attempts;           // per run
  std::vector<std::string> log_paths;  // per run
  std::string output;                  // the scheduler's output path (array pattern)
  ResourcesSpec resources;             // what the job asks for (its runs' point's resources)
  // An array cut to the scheduler's limit: this one is part `part` (from 0) of `parts`; cut_by
  // says how many runs went into how many jobs, and which limit.
  int part = 0, parts = 1;
  std::string cut_by;
  // Starts after the part before it ended (a cap on tasks at once holds over all the parts).
  bool after_previous = false;
};

class BatchRunner {
 public:
  // exec: the clocks the runner and its follower read and their waits (a virtual clock in the
  // unit tests, tests/unit/run/fake_executor.hpp).
  BatchRunner(const CaseSpec& spec, Store* store, Scheduler scheduler, BatchOptions opts,
              std::ostream& out, Executor& exec = system_executor());

  // How the runs would be grouped into jobs, with attempts taken from the store (if any). An
  // array never has more tasks than array_limit(client, its queue) allows: the runs of one set
  // of resources become as many arrays as that needs (a part of one run is a plain job).
  std::vector<BatchJob> plan_jobs(const std::vector<const PlannedRun*>& todo,
                                  SchedulerClient* client = nullptr) const;
  // Writes one job's script; returns its text.
  std::string write_script(const BatchJob& job) const;

  // Dry run: writes every job script (and task table), submits and stores nothing; returns the
  // jobs written (their runs point into `planned`).
  std::vector<BatchJob> write_scripts(const std::vector<PlannedRun>& planned);
  // Submits what is not done yet and (opts.wait) follows it to the end. Needs a store.
  BatchSummary run(const std::vector<PlannedRun>& planned, SchedulerClient& client);

 private:
  void single_job(const PlannedRun& p, const std::filesystem::path& dir,
                  std::vector<BatchJob>& jobs) const;
  // One array of these runs (a plain job for one run).
  void array_job(const std::vector<const PlannedRun*>& runs, const std::filesystem::path& dir,
                 std::vector<BatchJob>& jobs) const;
  int attempt_of(const PlannedRun& p) const;
  // The run's own directory (case `rundir:`), or "".
  std::string rundir_of(const PlannedRun& p) const;
  // What became of a job handed to the scheduler.
  enum class Sent { Submitted, Failed, Held };
  // Submits one job (after the jobs in after_end ended, however); its id in *id_out when taken.
  // With `held` (following, other jobs of this aerun still queued), a refusal by a per-user
  // limit holds the job back instead of failing it: its runs stay `pending` without a job, their
  // records in *held, and a later call with the same *held submits them again.
  Sent submit_job(const BatchJob& job, SchedulerClient& client, JobFollower& follower,
                  BatchSummary& sum, const std::vector<std::string>& after_end = {},
                  std::string* id_out = nullptr, std::vector<RunRecord>* held = nullptr);
  // The records of a job's runs, begun in the store.
  std::vector<RunRecord> begin_runs(const BatchJob& job) const;
  // Each run's own directory made ready (case `rundir:`); the error that stopped it, or "".
  std::string prepare_run_directories(const std::vector<RunRecord>& recs) const;
  // What a job waits for: after_end (however they end) and its runs' steps (opts_.after_ok).
  JobDeps dependencies_of(const BatchJob& job, const std::vector<std::string>& after_end) const;
  // Stores the records of a job the scheduler never took as ended with `status` (and `reason`
  // unless it is empty); submit_failed ones are counted in sum, with the last error.
  void end_unsent(std::vector<RunRecord>& recs, const std::string& status,
                  const std::string& reason, BatchSummary& sum) const;
  // A refusal in the scheduler's words, with what it means (an array over the cluster's limit,
  // a per-user limit) and the way out.
  std::string refusal_words(const BatchJob& job, SchedulerClient& client,
                            const std::string& message, Refusal refusal) const;
  // A job a per-user limit refused while this aerun's earlier jobs hold the quota: its runs
  // stay pending without a job id until it is submitted again.
  void hold_back(const BatchJob& job, std::vector<RunRecord>& recs, const std::string& why,
                 BatchSummary& sum) const;
  // A job the scheduler took: its runs pending with their job (or array task) ids, followed.
  void mark_submitted(const BatchJob& job, std::vector<RunRecord>& recs, const std::string& id,
                      double submitted, SchedulerClient& client, JobFollower& follower,
                      BatchSummary& sum) const;
  // The planned runs to submit; the others are reused, kept as failures, followed as the jobs
  // they already are, or left to the aerun that runs them (each counted in sum).
  std::vector<const PlannedRun*> runs_to_submit(const std::vector<PlannedRun>& planned,
                                                JobFollower& follower, BatchSummary& sum) const;
  FailurePolicy failure_policy() const;
  struct Queue;  // the jobs of one run() (batch_runner.cpp)
  // A run that ended with a transient failure is submitted again, as a job of its own, while it
  // has retries left.
  void retry_transient_failures(const std::vector<const PlannedRun*>& todo, Queue& queue) const;
  void print_summary(const BatchSummary& sum) const;
  // Array tasks running at once (the case's array_cap, --max-queued the lower), 0 for no cap.
  int task_cap() const;
  // client.submit, tried again while the scheduler is busy (opts_.submit_tries); the job's id,
  // or "" when a stop signal came while waiting (in sum.stop_signal). Throws SchedulerError.
  std::string submit_with_retries(const BatchJob& job, SchedulerClient& client,
                                  const JobDeps& after, BatchSummary& sum, double& submitted);

  const CaseSpec& spec_;
  Store* store_;
  Scheduler scheduler_;
  BatchOptions opts_;
  std::ostream& out_;
  Executor& exec_;
};

}  // namespace aerun
