#include "store/migrations.hpp"

#include <string>
#include <utility>

#include "aerun/record/system_key.hpp"
#include "aerun/store/store.hpp"
#include "store/sqlite.hpp"

namespace aerun {

namespace {

constexpr std::string_view kInitialSchema = R"sql(
CREATE TABLE schema_migrations (
  version     INTEGER PRIMARY KEY,
  description TEXT NOT NULL,
  applied_at  REAL NOT NULL
);
CREATE TABLE runs (
  id                INTEGER PRIMARY KEY,
  key               TEXT UNIQUE NOT NULL,
  case_name         TEXT NOT NULL DEFAULT '',
  case_file         TEXT NOT NULL DEFAULT '',
  repeat_index      INTEGER NOT NULL DEFAULT 0,
  attempt           INTEGER NOT NULL DEFAULT 1,
  status            TEXT NOT NULL,
  reason            TEXT NOT NULL DEFAULT '',
  command           TEXT NOT NULL DEFAULT '',
  workdir           TEXT NOT NULL DEFAULT '',
  launch_time       REAL,
  first_output_time REAL,
  startup_time      REAL,
  end_time          REAL,
  startup_s         REAL,
  wall_s            REAL,
  exit_code         INTEGER,
  signal            INTEGER,
  user_cpu_s        REAL NOT NULL DEFAULT 0,
  sys_cpu_s         REAL NOT NULL DEFAULT 0,
  max_rss_kb        INTEGER NOT NULL DEFAULT 0,
  host              TEXT NOT NULL DEFAULT '',
  aerun_version     TEXT NOT NULL DEFAULT '',
  git_commit        TEXT NOT NULL DEFAULT '',
  runner_pid        INTEGER NOT NULL DEFAULT 0,
  log_path          TEXT NOT NULL DEFAULT '',
  log_size          INTEGER NOT NULL DEFAULT 0,
  log_sha256        TEXT NOT NULL DEFAULT '',
  created_at        REAL NOT NULL,
  updated_at        REAL NOT NULL
);
CREATE INDEX runs_case_status ON runs(case_name, status);
CREATE TABLE run_params (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name     TEXT NOT NULL,
  value    TEXT NOT NULL,
  num      REAL,
  position INTEGER NOT NULL,
  PRIMARY KEY (run_id, name)
);
CREATE TABLE run_env (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name     TEXT NOT NULL,
  value    TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (run_id, name)
);
CREATE TABLE metrics (
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  value       REAL NOT NULL,
  unit        TEXT NOT NULL DEFAULT '',
  count       INTEGER NOT NULL DEFAULT 0,
  source_line INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, name)
);
CREATE TABLE series (
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  metric      TEXT NOT NULL,
  idx         INTEGER NOT NULL,
  value       REAL NOT NULL,
  source_line INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, metric, idx)
);
)sql";

// Runs made as batch jobs (docs/schedulers.md).
constexpr std::string_view kBatchJobs = R"sql(
ALTER TABLE runs ADD COLUMN scheduler TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN job_id TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN array_index INTEGER;
ALTER TABLE runs ADD COLUMN submit_time REAL;
ALTER TABLE runs ADD COLUMN job_start_time REAL;
ALTER TABLE runs ADD COLUMN queue_wait_s REAL;
ALTER TABLE runs ADD COLUMN scheduler_state TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN scheduler_reason TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_job_id ON runs(job_id);
)sql";

// A run's claim names its owner beyond the pid (start time, boot) and carries a
// heartbeat, so a dead owner's claim is told from a live one.
constexpr std::string_view kClaims = R"sql(
ALTER TABLE runs ADD COLUMN runner_start INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN runner_boot TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN heartbeat REAL;
)sql";

// The version of the case each run was made from.
constexpr std::string_view kCaseVersions = R"sql(
ALTER TABLE runs ADD COLUMN case_version TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN case_digest TEXT NOT NULL DEFAULT '';
)sql";

// Every invocation is a session, and every attempt of a run is kept (the history a
// nightly regression compares). The runs row holds a run's latest attempt, as before; an earlier
// attempt is copied into run_history (with its metrics) when a new one begins. Runs stored before
// this version belong to one session, "before-sessions".
constexpr std::string_view kSessions = R"sql(
CREATE TABLE sessions (
  id            INTEGER PRIMARY KEY,
  label         TEXT UNIQUE NOT NULL,
  kind          TEXT NOT NULL DEFAULT '',
  fresh         INTEGER NOT NULL DEFAULT 0,
  started_at    REAL NOT NULL,
  ended_at      REAL,
  aerun_version TEXT NOT NULL DEFAULT '',
  host          TEXT NOT NULL DEFAULT '',
  cluster       TEXT NOT NULL DEFAULT '',
  scheduler     TEXT NOT NULL DEFAULT '',
  user          TEXT NOT NULL DEFAULT '',
  git_commit    TEXT NOT NULL DEFAULT '',
  git_dirty     INTEGER,
  cases         TEXT NOT NULL DEFAULT ''
);
ALTER TABLE runs ADD COLUMN session_id INTEGER;
CREATE INDEX runs_session ON runs(session_id);
CREATE TABLE run_history (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  session_id   INTEGER,
  attempt      INTEGER NOT NULL,
  status       TEXT NOT NULL,
  reason       TEXT NOT NULL DEFAULT '',
  case_version TEXT NOT NULL DEFAULT '',
  case_digest  TEXT NOT NULL DEFAULT '',
  launch_time  REAL,
  end_time     REAL,
  startup_s    REAL,
  wall_s       REAL,
  host         TEXT NOT NULL DEFAULT '',
  job_id       TEXT NOT NULL DEFAULT '',
  log_path     TEXT NOT NULL DEFAULT '',
  log_sha256   TEXT NOT NULL DEFAULT '',
  archived_at  REAL NOT NULL
);
CREATE INDEX run_history_run ON run_history(run_id);
CREATE INDEX run_history_session ON run_history(session_id);
CREATE TABLE history_metrics (
  history_id INTEGER NOT NULL REFERENCES run_history(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  value      REAL NOT NULL,
  unit       TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (history_id, name)
);
INSERT INTO sessions(label, kind, started_at, ended_at)
  SELECT 'before-sessions', 'migration', min(created_at), max(updated_at) FROM runs
  HAVING count(*) > 0;
UPDATE runs SET session_id = (SELECT id FROM sessions WHERE label = 'before-sessions');
)sql";

// Old logs compressed or removed by `aerun prune`; what the run's row says stays.
constexpr std::string_view kLogState = R"sql(
ALTER TABLE runs ADD COLUMN log_state TEXT NOT NULL DEFAULT '';
ALTER TABLE run_history ADD COLUMN log_state TEXT NOT NULL DEFAULT '';
)sql";

// A case's runs in id order straight from an index (tables and listings stream them
// with their children, merged by run id, without sorting the whole case).
constexpr std::string_view kCaseIndex = R"sql(
CREATE INDEX runs_case ON runs(case_name);
)sql";

// The process group of a running run's command and its leader's start time: after a kill -9 of
// aerun, the next aerun on this host stops what is left of it before running the point again.
constexpr std::string_view kChildGroup = R"sql(
ALTER TABLE runs ADD COLUMN child_pgid INTEGER;
ALTER TABLE runs ADD COLUMN child_start INTEGER;
)sql";

// What a run's log gave that extraction could not use (lines cut at 64 MiB, captures that were
// not numbers), counted, one sentence per row; rewritten with the metrics.
constexpr std::string_view kWarnings = R"sql(
CREATE TABLE run_warnings (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  text     TEXT NOT NULL,
  PRIMARY KEY (run_id, position)
);
)sql";

// The environment record of a session (docs/store.md#the-environment-record): each text once by
// its SHA-256, each record once by the digest of its items. And where a run ran: its own directory
// (case `rundir:`) and its nodes.
constexpr std::string_view kEnvRecords = R"sql(
CREATE TABLE env_texts (
  id     INTEGER PRIMARY KEY,
  digest TEXT UNIQUE NOT NULL,
  bytes  INTEGER NOT NULL,
  text   TEXT NOT NULL
);
CREATE TABLE env_records (
  digest     TEXT PRIMARY KEY,
  created_at REAL NOT NULL
);
CREATE TABLE env_record_items (
  record      TEXT NOT NULL REFERENCES env_records(digest) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  name        TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT '',
  text_digest TEXT NOT NULL REFERENCES env_texts(digest),
  PRIMARY KEY (record, position)
);
ALTER TABLE sessions ADD COLUMN env_record TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN rundir TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN nodes TEXT NOT NULL DEFAULT '';
)sql";

// Parameters, environment and metrics stored by run (WITHOUT ROWID: the table is its primary key's
// b-tree), so that a case's runs are read with their children in one sequential pass instead of an
// index lookup and a row fetch per child row (docs/performance.md). A metric's place among its
// run's metrics, its rowid until now, is a column of its own. The case files a case's runs came
// from are found through an index instead of a scan of the case. A case's runs in id order with
// what a table reads of their own row (status, repeat, attempt, version, session, case file) come
// from an index that holds those (runs_case_summary), not from the wide rows of runs; it replaces
// runs_case, its prefix.
constexpr std::string_view kClusteredChildren = R"sql(
CREATE TABLE run_params_v11 (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name     TEXT NOT NULL,
  value    TEXT NOT NULL,
  num      REAL,
  position INTEGER NOT NULL,
  PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
INSERT INTO run_params_v11(run_id, name, value, num, position)
  SELECT run_id, name, value, num, position FROM run_params;
DROP TABLE run_params;
ALTER TABLE run_params_v11 RENAME TO run_params;
CREATE TABLE run_env_v11 (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name     TEXT NOT NULL,
  value    TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
INSERT INTO run_env_v11(run_id, name, value, position)
  SELECT run_id, name, value, position FROM run_env;
DROP TABLE run_env;
ALTER TABLE run_env_v11 RENAME TO run_env;
CREATE TABLE metrics_v11 (
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  value       REAL NOT NULL,
  unit        TEXT NOT NULL DEFAULT '',
  count       INTEGER NOT NULL DEFAULT 0,
  source_line INTEGER NOT NULL DEFAULT 0,
  position    INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
INSERT INTO metrics_v11(run_id, name, value, unit, count, source_line, position)
  SELECT run_id, name, value, unit, count, source_line, rowid FROM metrics;
DROP TABLE metrics;
ALTER TABLE metrics_v11 RENAME TO metrics;
CREATE INDEX runs_case_file ON runs(case_name, case_file);
CREATE INDEX runs_case_summary ON runs(case_name, id, status, repeat_index, attempt, case_version,
                                       session_id, case_file);
DROP INDEX runs_case;
)sql";

// What this host saw of another host's silent claim: its heartbeat, and since when (this boot's
// CLOCK_BOOTTIME, which no clock setting moves). A claim is taken over only when one watcher saw
// the same heartbeat for kStaleAfterS of its own clock: hosts whose clocks disagree never take a
// live run (issue 28).
constexpr std::string_view kClaimWatch = R"sql(
CREATE TABLE claim_watch (
  run_id     INTEGER NOT NULL,
  watcher    TEXT NOT NULL,
  heartbeat  REAL NOT NULL,
  first_seen REAL NOT NULL,
  PRIMARY KEY (run_id, watcher)
) WITHOUT ROWID;
)sql";

// The host that writes a store in WAL mode (WAL needs all its writers on one host): a second host
// finding the store open there is refused (issue 28).
constexpr std::string_view kStoreWriter = R"sql(
CREATE TABLE store_writer (
  id    INTEGER PRIMARY KEY CHECK (id = 1),
  host  TEXT NOT NULL,
  since REAL NOT NULL
);
)sql";

// The image a run ran inside and its digest (issue 31).
constexpr std::string_view kContainers = R"sql(
ALTER TABLE runs ADD COLUMN container_image TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN container_digest TEXT NOT NULL DEFAULT '';
)sql";

// The system each run ran on (issue 41; docs/systems.md): part of its key, so that the same point
// on two machines is two runs.
constexpr std::string_view kSystems = R"sql(
ALTER TABLE runs ADD COLUMN system TEXT NOT NULL DEFAULT '';
ALTER TABLE run_history ADD COLUMN system TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_case_system ON runs(case_name, system);
)sql";

// Rows stored before systems were get the system their host name says (Store::set_system_of_host,
// the profiles' host patterns), and a finished run the key it has on that system, so that the
// same case run there again reuses it. A run in flight (running, pending: a batch job whose
// script reports by its key) keeps its key and no system. A host no profile names: no system.
void name_systems_by_host(sqlite::Database& db) {
  const auto& system_of = Store::system_of_host();
  if (!system_of) return;
  std::vector<std::pair<std::string, std::string>> named;  // host, system
  {
    auto q =
        db.prepare("SELECT DISTINCT host FROM runs UNION SELECT DISTINCT host FROM run_history");
    while (q->step()) {
      std::string host = q->text(0);
      std::string system = system_of(host);
      if (!system.empty()) named.emplace_back(std::move(host), std::move(system));
    }
  }
  for (const auto& [host, system] : named) {
    std::vector<std::pair<long long, std::string>> rows;  // id, key
    {
      auto q = db.prepare(
          "SELECT id, key FROM runs WHERE host=? AND system='' AND status NOT IN ('running', "
          "'pending')");
      q->bind(1, host);
      while (q->step()) rows.emplace_back(q->int64(0), q->text(1));
    }
    for (const auto& [id, key] : rows)
      db.prepare("UPDATE runs SET system=?, key=? WHERE id=?")
          ->bind(1, system)
          .bind(2, key_on_system(key, system))
          .bind(3, id)
          .run();
    db.prepare("UPDATE run_history SET system=? WHERE host=? AND system=''")
        ->bind(1, system)
        .bind(2, host)
        .run();
  }
}

}  // namespace

const std::vector<Migration>& store_migrations() {
  static const std::vector<Migration> migrations = {
      {1, "runs, parameters, environment, metrics and series", kInitialSchema},
      {2, "batch jobs: scheduler, job id, array index, submit/start times, queue wait, state",
       kBatchJobs},
      {3, "claims: the running aerun's start time, boot and heartbeat", kClaims},
      {4, "case versions: the version and file digest of the case a run came from", kCaseVersions},
      {5, "sessions, and the history of every attempt", kSessions},
      {6, "log state: compressed or pruned by aerun prune", kLogState},
      {7, "an index of runs by case, in id order", kCaseIndex},
      {8, "the process group of a running run's command", kChildGroup},
      {9, "extraction warnings: what a log gave that could not be used", kWarnings},
      {10, "environment records (what a session ran with, each text once); run directories, nodes",
       kEnvRecords},
      {11,
       "parameters, environment and metrics clustered by run (WITHOUT ROWID); case files and "
       "case summaries indexed",
       kClusteredChildren},
      {12, "claim watches: another host's silent claim timed by the watcher's own clock",
       kClaimWatch},
      {13, "the host that writes a WAL store", kStoreWriter},
      {14, "containers: the image a run ran inside and its digest", kContainers},
      {15, "systems: the system each run and attempt ran on, part of its key", kSystems,
       name_systems_by_host},
  };
  return migrations;
}

}  // namespace aerun
