// The results store: every run of every case, with its parameters, metrics and series, in SQLite.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerun/record/env_record.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/store/session.hpp"

namespace aerun {

// Which runs list() returns; empty fields match everything.
struct RunFilter {
  std::string case_name;
  std::string status;
  std::string key_prefix;
  long long session_id = 0;  // runs whose latest attempt is of this session (0: any)
  // Runs on one of these systems ("" : on none named); nullopt: on any.
  std::optional<std::vector<std::string>> systems = std::nullopt;
  bool with_env = true;             // load each run's env
  bool with_series = true;          // load each run's series (every point: can be large)
  bool with_metric_details = true;  // each metric's unit, count and source line (else "", 0, 0)
  // Only these metrics of each run (nullopt: every one).
  std::optional<std::vector<std::string>> metric_names = std::nullopt;
  // The columns of runs to read besides those always read (id, case and case file, repeat,
  // attempt, status, case version, session; of a running run, the claim that tells a stale one),
  // by name (each the RunRecord field of that name); nullopt reads them all. Fields not read keep
  // their defaults. A table of a million runs reads faster without the key, command, log and
  // scheduler fields it never shows.
  std::optional<std::vector<std::string>> columns = std::nullopt;
  // Only runs whose id is in [id_from, id_to] (0: no bound): a large read cut into parts that
  // threads read at once (Store::id_span tells the ids there are).
  long long id_from = 0, id_to = 0;

  // Every run of one case.
  static RunFilter of_case(std::string name) {
    RunFilter f;
    f.case_name = std::move(name);
    return f;
  }
};

// The results store: one SQLite file (WAL, foreign keys on, busy_timeout 10 s,
// synchronous=NORMAL), its schema versioned by migrations (PRAGMA user_version plus a
// schema_migrations table), prepared statements reused, one transaction per write (rolled back
// when the write fails). Two processes may use one file at once; one Store object is not
// thread-safe. See docs/store.md for the schema.
class Store {
 public:
  // Creates parent directories, opens or creates the file and migrates it. Throws SystemError
  // when it cannot, or when the file's schema is newer than this aerun knows.
  explicit Store(const std::string& path);
  // Opens an existing store for reading only (no migration, no write; on read-only media too).
  // Throws SystemError when its schema is not the latest (migrating needs write access once).
  struct ReadOnly {};
  Store(const std::string& path, ReadOnly);
  // Another store to read without changing a byte of it (`aerun merge`'s sources): opened
  // read-only when its schema is this aerun's, else copied (SQLite's online backup, read-only)
  // into `scratch` (a file path of the caller's, removed by it) and that copy migrated.
  static Store read_untouched(const std::string& path, const std::string& scratch);
  // Attempts whose case name is NULL (a store aerun did not write): they belong to no case.
  long long attempts_without_case() const;
  ~Store();
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The file given to the constructor (":memory:" for an in-memory store).
  const std::string& path() const { return path_; }

  // Claims a run before launching it: inserts the row for r.key (status "running", attempt 1,
  // launch info, params, env, command, runner_pid, host, session, ...) or, when the key exists (an
  // earlier attempt), copies that finished attempt into the history (run_history, with its
  // metrics), then updates the row with attempt+1, clears its earlier results and deletes its old
  // metrics and series. Returns the row id.
  long long begin_run(const RunRecord& r);

  // How long a running aerun may stay silent before its claims count as stale (it writes a
  // heartbeat every kHeartbeatS). Another host's claims can only be judged by this.
  static constexpr double kHeartbeatS = 30;
  static constexpr int kBusyTimeoutMs = 10000;  // how long a write waits for a lock by default
  static constexpr double kStaleAfterS = 300;

  // The result of claim_run.
  struct Claim {
    enum class Outcome { Claimed, Done, Busy };
    Outcome outcome = Outcome::Claimed;
    long long id = 0;  // Claimed: the row, begun
    int attempt = 0;   // Claimed: its attempt
    RunRecord found;   // Done / Busy: the row as found
    // Claimed over an attempt whose aerun died while it ran on this host (this boot): the process
    // group its command ran in, and the group leader's start time (0: none recorded).
    int leftover_pgid = 0;
    long long leftover_start = 0;
  };
  // Atomically (one write transaction, the row's status read inside it): Done when the stored
  // run is one to keep (keep(row): ok, or a failure kept as a result; of this session when the
  // session runs every point anew), Busy when another
  // live aerun process runs it (or a batch job is in flight for it), else begins it as begin_run
  // does (also a stale claim: its owner is provably gone or silent for kStaleAfterS) and returns
  // Claimed.
  Claim claim_run(const RunRecord& r, const std::function<bool(const RunRecord&)>& keep);
  // The process group a claimed run's command runs in (its pid, a group leader) and the leader's
  // start time; cleared when the run finishes.
  void set_running_child(long long id, int pgid, long long start_ticks);
  // The log a claimed run writes, known once its attempt is (for `aerun watch` while it runs).
  void set_running_log(long long id, const std::string& path);
  // Records that this process still runs these runs (rows still "running" and still this
  // process's claim). Returns those that are not: another aerun took them over (this one was
  // stopped, or silent); their commands must stop, their results are not written (issue 28).
  std::vector<long long> heartbeat(const std::vector<long long>& ids);

  // Writes a finished run by r.key (status, reason, times, exit code/signal, rusage, log
  // path/size/sha256, metrics, series), replacing earlier metrics and series. A key that was never
  // begun is inserted whole. A local run (r.runner_pid set) whose row is now another process's
  // claim or attempt is not written: returns false.
  bool finish_run(const RunRecord& r);

  // What store_ingested did with a log's run.
  enum class Ingested { Added, Updated, Unchanged };
  // An ingested log's run, decided and written in one transaction, so that concurrent ingests
  // each report what they did: Unchanged when the row already holds this log (same size, SHA-256
  // and parameters; r.status is then the stored one), Updated (a new attempt) when it holds
  // another, else Added.
  Ingested store_ingested(RunRecord& r);

  // Writes the status, reason and batch-job fields (scheduler, job id, array index, submit and
  // start times, queue wait, scheduler state and reason) of a begun run, by r.key: a job
  // submitted, pending, running. Throws SystemError for a key never begun.
  void update_job(const RunRecord& r);

  std::optional<RunRecord> find_by_key(const std::string& key) const;
  // By id ("42"), full key, or unique key prefix (at least 4 characters); an id wins over a key
  // prefix made of digits. Throws InputError when a prefix matches several runs.
  std::optional<RunRecord> find(const std::string& ref) const;
  // Ordered by case name, then id; with params, env, metrics and series.
  std::vector<RunRecord> list(const RunFilter& f) const;
  // The same runs in the same order, one at a time (memory: one run), their children read in
  // bulk (one query per kind of child per case, merged by run id). fn returns false to stop; it
  // may read through this Store, but not call for_each, list or outline.
  void for_each(const RunFilter& f, const std::function<bool(RunRecord&)>& fn) const;

  // What a listing of the filter's runs needs before its first row, read with light queries:
  // the parameter and metric names in order of first appearance (in list() order), per case its
  // metric names and the case files its runs recorded (at most 3), and the number of runs.
  struct Outline {
    std::vector<std::string> params, metrics;
    std::map<std::string, std::vector<std::string>> case_metrics, case_files;
    std::vector<std::string> systems;  // the named systems the runs ran on, sorted
    long long runs = 0;
    // A run record per case file the case's runs recorded (name and file only): what
    // case_of() and planned_runs() read to find the case file as it is now.
    std::vector<RunRecord> file_stubs(const std::string& case_name) const {
      std::vector<RunRecord> out;
      if (auto it = case_files.find(case_name); it != case_files.end())
        for (const auto& file : it->second) {
          RunRecord r;
          r.case_name = case_name;
          r.case_file = file;
          out.push_back(std::move(r));
        }
      return out;
    }
  };
  // Without names: only the counts and case files (two index lookups per case).
  Outline outline(const RunFilter& f, bool with_names = true) const;

  // How many runs of one case the filter selects (f.case_name must be set), and their least and
  // greatest ids (0 when none). Without count, `runs` is left 0 and only the ids are sought (two
  // index seeks; counting steps through the case's index entries).
  struct IdSpan {
    long long runs = 0, first = 0, last = 0;
  };
  IdSpan id_span(const RunFilter& f, bool count = true) const;

  // Marks "stale" (reason "aerun process <pid> disappeared") the rows left "running" on this host
  // by an aerun process that no longer exists (its pid gone or reused by a process started at
  // another time); returns how many. Batch jobs (a job_id) are left alone: their scheduler, not
  // an aerun process, runs them. Reading (find, list) shows such rows as "stale" too, without
  // writing, as it does rows whose heartbeat is older than kStaleAfterS.
  int reap_orphans(const std::string& host);

  // Removes these runs (their parameters, environment, metrics and series with them) in one
  // transaction; returns how many rows went.
  int remove(const std::vector<long long>& ids);
  // Every case name in the store, sorted (for "did you mean").
  std::vector<std::string> case_names() const;

  // Saves an environment record once per distinct content (each item's text once by its SHA-256,
  // the record once by the digest of its items) and returns its digest; the same record saved
  // again (here or in another store) has the same digest.
  std::string save_env_record(const EnvRecord& rec);
  // The record of that digest, or nullopt.
  std::optional<EnvRecord> env_record(const std::string& digest) const;

  // Records a session (its id set in s). A label already stored continues that session (a night
  // resumed after a stop): its id is returned and it is open again (its environment record is
  // set when it had none).
  long long open_session(SessionInfo& s);
  void close_session(long long id);
  // Oldest first.
  std::vector<SessionInfo> sessions() const;
  // By label, or by id ("12").
  std::optional<SessionInfo> find_session(const std::string& ref) const;
  // The runs of a case as one session left them: per run, its latest attempt made in that
  // session (the current row, or an earlier attempt from the history, with its metrics).
  std::vector<RunRecord> session_runs(long long session, const std::string& case_name) const;
  // The cases of session_runs(session, ""), in the order of their first run there; one query,
  // no run loaded.
  std::vector<std::string> session_case_names(long long session) const;
  // Whether the session made any attempt of the case ("": of any case); one indexed query.
  bool session_has_runs(long long session, const std::string& case_name) const;
  // Every attempt of the case's runs, current and earlier, each with its session (for history
  // and regress over many sessions). Earlier attempts carry metrics but no series.
  std::vector<RunRecord> all_attempts(const std::string& case_name) const;

  // The log of an attempt (a run's current one, or an earlier one in the history), for
  // `aerun prune`.
  struct LogFile {
    bool history = false;  // an earlier attempt (run_history.id), else runs.id
    long long id = 0;
    std::string key, case_name, path, state;
    double ended = 0;  // end time (launch time when it never ended)
  };
  // Logs of attempts that ended before t (of one case, or "" for all), not pruned yet.
  std::vector<LogFile> logs_ended_before(double t, const std::string& case_name) const;
  // Whether an attempt (current or earlier) still names this log file.
  bool log_in_use(const std::string& path) const;
  // Records what became of a log: its new path (a .gz) and state ("compressed", "pruned").
  void set_log(const LogFile& f, const std::string& path, const std::string& state);

  // `aerun merge`: adds an attempt from another store (r.session_id already this store's). An
  // attempt already here (same key, end time, status and log digest) is skipped: returns false.
  // Newer than the run's current row, it becomes the current row (the row's attempt goes to the
  // history); older, it goes straight into the history. Nothing is overwritten.
  bool import_attempt(const RunRecord& r);

  // Runs whose latest attempt did not succeed, each replaced by its latest earlier attempt of the
  // same case version that did (from the history, with its metrics), when there is one: what a
  // table shows by default.
  void prefer_latest_ok(std::vector<RunRecord>& runs) const;
  void prefer_latest_ok(RunRecord& run) const;

  // How long a write waits for another process's lock before StoreBusy (default 10 s); an
  // `aerun case` waits 0.2 s inside its run loop and tries again later, so that a locked store
  // never holds up its runs.
  void set_busy_timeout_ms(int ms);

  // The system profile whose host names a host matches ("" for none): what the migration that
  // brought systems (schema v15) gives the rows stored before (docs/systems.md). Process-wide,
  // set once by the program before it opens a store; unset, such rows keep no system.
  using SystemOfHost = std::function<std::string(const std::string& host)>;
  static void set_system_of_host(SystemOfHost fn);
  static const SystemOfHost& system_of_host();
  int schema_version() const;
  // The newest schema version this aerun knows.
  static int latest_schema_version();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
};

}  // namespace aerun
