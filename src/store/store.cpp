#include "aerun/store/store.hpp"

#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <unordered_set>

#include "aerun/judge/run_status.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/process_identity.hpp"
#include "aerun/util/sha256.hpp"
#include "aerun/util/shell_quote.hpp"
#include "store/migrations.hpp"
#include "store/sqlite.hpp"
#include "store/store_filesystem.hpp"

namespace aerun {

using sqlite::Database;
using sqlite::Statement;
using sqlite::Transaction;

namespace {

double now_epoch() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

// How one column of runs is read into the RunRecord field of the same name (streaming listings
// and tables read a subset: RunFilter::columns).
struct RunColumn {
  enum Need {
    Named,   // read when RunFilter::columns names it (or names none)
    Always,  // identity, status, version: read whatever RunFilter::columns says
    Claim,   // the claim that tells a stale run: always read for a running run, else as Named
  };
  std::string_view name;
  void (*read)(RunRecord&, const Statement&, int);
  Need need = Named;
};

// clang-format off
#define AERUN_COLUMN(field, getter, need)                                              \
  RunColumn{#field,                                                                    \
            [](RunRecord& r, const Statement& s, int c) {                              \
              r.field = static_cast<decltype(r.field)>(s.getter(c));                   \
            },                                                                         \
            RunColumn::need}
// clang-format on

// Every column of runs: what read_run() reads when RunFilter::columns names none.
const RunColumn kRunColumnTable[] = {
    AERUN_COLUMN(id, int64, Always),
    AERUN_COLUMN(key, text, Named),
    AERUN_COLUMN(case_name, text, Always),
    AERUN_COLUMN(case_file, text, Always),
    AERUN_COLUMN(repeat_index, int64, Always),
    AERUN_COLUMN(attempt, int64, Always),
    AERUN_COLUMN(status, text, Always),
    AERUN_COLUMN(reason, text, Named),
    AERUN_COLUMN(command, text, Named),
    AERUN_COLUMN(workdir, text, Named),
    AERUN_COLUMN(launch_time, opt_real, Named),
    AERUN_COLUMN(first_output_time, opt_real, Named),
    AERUN_COLUMN(startup_time, opt_real, Named),
    AERUN_COLUMN(end_time, opt_real, Named),
    AERUN_COLUMN(startup_s, opt_real, Named),
    AERUN_COLUMN(wall_s, opt_real, Named),
    AERUN_COLUMN(exit_code, opt_int, Named),
    AERUN_COLUMN(signal, opt_int, Named),
    AERUN_COLUMN(user_cpu_s, real, Named),
    AERUN_COLUMN(sys_cpu_s, real, Named),
    AERUN_COLUMN(max_rss_kb, int64, Named),
    AERUN_COLUMN(host, text, Claim),
    AERUN_COLUMN(aerun_version, text, Named),
    AERUN_COLUMN(git_commit, text, Named),
    AERUN_COLUMN(runner_pid, int64, Claim),
    AERUN_COLUMN(log_path, text, Named),
    AERUN_COLUMN(log_size, int64, Named),
    AERUN_COLUMN(log_sha256, text, Named),
    AERUN_COLUMN(scheduler, text, Named),
    AERUN_COLUMN(job_id, text, Claim),
    AERUN_COLUMN(array_index, opt_int, Named),
    AERUN_COLUMN(submit_time, opt_real, Named),
    AERUN_COLUMN(job_start_time, opt_real, Named),
    AERUN_COLUMN(queue_wait_s, opt_real, Named),
    AERUN_COLUMN(scheduler_state, text, Named),
    AERUN_COLUMN(scheduler_reason, text, Named),
    AERUN_COLUMN(runner_start, int64, Claim),
    AERUN_COLUMN(runner_boot, text, Claim),
    AERUN_COLUMN(heartbeat, opt_real, Claim),
    AERUN_COLUMN(case_version, text, Always),
    AERUN_COLUMN(case_digest, text, Named),
    AERUN_COLUMN(session_id, int64, Always),
    AERUN_COLUMN(log_state, text, Named),
    AERUN_COLUMN(rundir, text, Named),
    AERUN_COLUMN(nodes, text, Named),
};
#undef AERUN_COLUMN

// Every column of runs, in the order read_run() reads them: "id, key, …".
const std::string& all_run_columns() {
  static const std::string cols = [] {
    std::string out;
    for (const RunColumn& c : kRunColumnTable)
      out += (out.empty() ? "" : ", ") + std::string(c.name);
    return out;
  }();
  return cols;
}

// The columns of runs a filter reads, and the SQL that selects them from `runs r`: every column,
// or those always read and those it names; the claim of a running run (which tells a stale one)
// is then read by a query of its own, for the few runs that are running. Throws
// std::invalid_argument for a name that is no column of runs.
struct RunColumns {
  std::vector<const RunColumn*> read, claim;
  std::string sql, claim_sql;
  bool summary = true;  // every column read is in the index runs_case_summary

  explicit RunColumns(const RunFilter& f) {
    if (f.columns)
      for (const auto& name : *f.columns)
        if (std::none_of(std::begin(kRunColumnTable), std::end(kRunColumnTable),
                         [&](const RunColumn& c) { return c.name == name; }))
          throw std::invalid_argument("RunFilter::columns: runs has no column '" + name + "'");
    for (const RunColumn& c : kRunColumnTable) {
      const bool named =
          !f.columns || c.need == RunColumn::Always ||
          std::find(f.columns->begin(), f.columns->end(), c.name) != f.columns->end();
      if (named) {
        static constexpr std::string_view kSummary[] = {"id",           "case_name", "status",
                                                        "repeat_index", "attempt",   "case_version",
                                                        "session_id",   "case_file"};
        summary = summary &&
                  std::find(std::begin(kSummary), std::end(kSummary), c.name) != std::end(kSummary);
        read.push_back(&c);
        sql += fmt::format("{}r.{}", sql.empty() ? "" : ", ", c.name);
      } else if (c.need == RunColumn::Claim) {
        claim.push_back(&c);
        claim_sql += fmt::format("{}{}", claim_sql.empty() ? "SELECT " : ", ", c.name);
      }
    }
    if (!claim.empty()) claim_sql += " FROM runs WHERE id=?";
  }
};

// A run left "running" by an aerun process that is provably gone, or silent for longer than
// kStaleAfterS, is shown (and may be taken over) as "stale". Batch jobs are their scheduler's.
// On this host a claim is judged by its process alone: a live owner stopped with Ctrl-Z, or one
// whose heartbeat looks old after a clock jump, keeps its run however long it was silent (issue
// 28: a newcomer took such runs over and killed them).
bool claim_is_stale(const RunRecord& r, double now) {
  if (r.status != run_status::running || !r.job_id.empty()) return false;
  if (provably_dead({r.host, r.runner_pid, r.runner_start, r.runner_boot})) return true;
  if (r.runner_pid > 0 && r.host == self_identity().host) return false;  // alive, here
  return r.heartbeat && now - *r.heartbeat > Store::kStaleAfterS;
}

void mark_if_stale(RunRecord& r, double now) {
  if (!claim_is_stale(r, now)) return;
  r.reason = r.heartbeat && now - *r.heartbeat > Store::kStaleAfterS
                 ? fmt::format("aerun process {} on {} silent for {:.0f} s", r.runner_pid, r.host,
                               now - *r.heartbeat)
                 : fmt::format("aerun process {} on {} disappeared", r.runner_pid, r.host);
  r.status = run_status::stale;
}

// A row of runs selected by columns.sql (with its claim from db when it is running and the
// claim was not selected), stale claims marked as of `now`.
RunRecord read_run(const Statement& s, const RunColumns& columns, double now,
                   Database* db = nullptr) {
  RunRecord r;
  int c = 0;
  for (const RunColumn* col : columns.read) col->read(r, s, c++);
  if (r.status == run_status::running && !columns.claim.empty()) {
    auto q = db->prepare(columns.claim_sql);
    q->bind(1, r.id);
    c = 0;
    if (q->step())
      for (const RunColumn* col : columns.claim) col->read(r, *q, c++);
  }
  mark_if_stale(r, now);
  return r;
}

// A row of every column of runs (all_run_columns()).
RunRecord read_run(const Statement& s) {
  static const RunColumns every{RunFilter{}};
  return read_run(s, every, now_epoch());
}

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 18) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

int user_version(Database& db) {
  auto q = db.prepare("PRAGMA user_version");
  return q->step() ? static_cast<int>(q->int64(0)) : 0;
}

void check_not_newer(int found) {
  const int known = static_cast<int>(store_migrations().size());
  if (found > known)
    throw SystemError(fmt::format("store schema v{} is newer than this aerun (v{})", found, known));
}

}  // namespace

struct Store::Impl {
  // Whether the store's WAL index (-shm) was there before this process opened it: another
  // connection has the store open (this one's own open makes the file).
  bool shm_before_open = false;
  Database db;

  static bool exists_quietly(const std::string& p) {
    std::error_code ec;
    return std::filesystem::exists(p, ec);
  }

  // Whether this host has seen prev's heartbeat stand still for kStaleAfterS of its own clock
  // (claim_watch); records what it sees now otherwise.
  bool silent_long_enough(const RunRecord& prev);

  explicit Impl(const std::string& path) : Impl(path, store_filesystem(path)) {}

  Impl(const std::string& path, const StoreFilesystem& fs)
      : shm_before_open(exists_quietly(path + "-shm")), db(with_working_locks(path, fs)) {
    refuse_foreign_schema(path);
    db.exec("PRAGMA foreign_keys=ON");
    if (fs.network)
      use_rollback_journal(path, fs);
    else
      use_wal();
    db.exec("PRAGMA synchronous=NORMAL");
    if (!fs.network) refuse_other_hosts_wal(path);
    migrate();
    if (!fs.network) note_wal_host();
  }

  // On a network file system SQLite's rollback journal needs POSIX locks that work; without them
  // two writers would corrupt the store: refused before SQLite opens (or creates) it.
  static const std::string& with_working_locks(const std::string& path, const StoreFilesystem& fs) {
    if (!fs.network || posix_locks_work(path)) return path;
    throw SystemError(fmt::format(
        "store {} is on {}, which offers no working file locks here (fcntl: ENOLCK): several "
        "aerun processes writing it could corrupt it. Keep the store on a local disk (--db or "
        "AERUN_DB, e.g. /tmp or the node's local scratch) and combine stores with aerun merge, "
        "or mount {} with locking (NFS: lockd / no 'nolock')",
        printable(path), fs.name, fs.name));
  }

  // WAL needs every reader and writer on one host (its index is shared memory): on a file system
  // several hosts share (Lustre, GPFS, NFS, CephFS, ...) the store keeps a rollback journal,
  // which works with the file system's locks (sqlite.org/wal.html, "WAL does not work over a
  // network filesystem"). A store switched to WAL elsewhere is switched back (SQLite does it
  // once no other connection has it open).
  void use_rollback_journal(const std::string& path, const StoreFilesystem& fs) {
    try {
      db.exec("PRAGMA journal_mode=DELETE");
    } catch (const SystemError& e) {
      throw SystemError(fmt::format(
          "store {} is on {} (shared between hosts) and in WAL mode, which cannot work there, and "
          "another process holds it so it cannot be switched to a rollback journal now ({}). "
          "Stop the other aerun processes using it, or keep the store on a local disk (--db or "
          "AERUN_DB) and combine stores with aerun merge",
          printable(path), fs.name, e.what()));
    }
  }

  // A store in WAL mode written from a second host while the first has it open (its -shm file
  // there) means the file system is shared but was not recognised: refused, as WAL would corrupt
  // it. A store copied to another machine (no -shm: closed cleanly) is simply this host's now.
  void refuse_other_hosts_wal(const std::string& path) {
    if (user_version(db) < 13) return;
    std::string host;
    {
      auto q = db.prepare("SELECT host FROM store_writer WHERE id=1");
      if (!q->step()) return;
      host = q->text(0);
    }
    if (host == self_identity().host || !shm_before_open) return;
    throw SystemError(fmt::format(
        "store {} is in WAL mode and open on host {}: WAL needs all its writers on one host "
        "(sqlite.org/wal.html). Use it from {}, keep a store per host (--db or AERUN_DB) and "
        "combine them with aerun merge",
        printable(path), printable(host), printable(host)));
  }

  void note_wal_host() {
    const std::string host = self_identity().host;
    {
      auto q = db.prepare("SELECT host FROM store_writer WHERE id=1");
      if (q->step() && q->text(0) == host) return;
    }
    Transaction tx(db, Transaction::Mode::Immediate);
    db.prepare("INSERT OR REPLACE INTO store_writer(id, host, since) VALUES(1, ?, ?)")
        ->bind(1, host)
        .bind(2, now_epoch())
        .run();
    tx.commit();
  }

  // Switching a new store to WAL needs it alone for a moment, and SQLite answers "database is
  // locked" at once, without its busy handler, to a connection that loses that race (several
  // aerun processes started together on a store that does not exist yet): try again, for as
  // long as the busy timeout waits for other locks.
  void use_wal() {
    for (int waited_ms = 0;; waited_ms += 10) {
      try {
        db.exec("PRAGMA journal_mode=WAL");
        return;
      } catch (const SystemError&) {
        const int code = sqlite3_errcode(db.handle()) & 0xff;
        if ((code != SQLITE_BUSY && code != SQLITE_LOCKED) || waited_ms >= Database::kBusyTimeoutMs)
          throw;
      }
      ::usleep(10000);
    }
  }

  // aerun creates no trigger and no view: one in a store came from elsewhere (a merged or copied
  // store) and would run its SQL inside aerun's writes, or hang every reader (a recursive view).
  // Refused before anything else is read or written (issue 28); functions with side effects are
  // refused in what the schema holds too (trusted_schema=OFF).
  void refuse_foreign_schema(const std::string& path) {
    db.exec("PRAGMA trusted_schema=OFF");
    auto q = db.prepare(
        "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY name");
    std::string found;
    while (q->step())
      found +=
          fmt::format("{}{} '{}'", found.empty() ? "" : ", ", q->text(0), printable(q->text(1)));
    if (!found.empty())
      throw SystemError(fmt::format(
          "store {} holds {} that aerun did not create: aerun runs no SQL a store brings. Drop "
          "it (sqlite3 {} 'DROP TRIGGER name' / 'DROP VIEW name') or use a copy without it",
          printable(path), found, shell_quote(path)));
  }

  Impl(const std::string& path, ReadOnly) : db(path, /*read_only=*/true) {
    refuse_foreign_schema(path);
    const int v = user_version(db);
    check_not_newer(v);
    if (v < static_cast<int>(store_migrations().size()))
      throw SystemError(fmt::format(
          "store {} has schema v{}, older than this aerun's (v{}), and cannot be written here: "
          "open it once where it can be written to migrate it",
          path, v, store_migrations().size()));
  }

  // Applies missing migrations, each in its own transaction; a second process racing to migrate
  // re-reads the version once it holds the write lock and skips what is done.
  void migrate() {
    check_not_newer(user_version(db));
    for (const auto& m : store_migrations()) {
      if (user_version(db) >= m.version) continue;
      Transaction tx(db, Transaction::Mode::Immediate);
      const int v = user_version(db);
      check_not_newer(v);
      if (v >= m.version) continue;
      db.exec(std::string(m.sql));
      db.prepare("INSERT INTO schema_migrations(version, description, applied_at) VALUES(?,?,?)")
          ->bind(1, m.version)
          .bind(2, m.description)
          .bind(3, now_epoch())
          .run();
      db.exec(fmt::format("PRAGMA user_version={}", m.version));
      tx.commit();
    }
  }

  std::optional<long long> id_of(const std::string& key) {
    auto q = db.prepare("SELECT id FROM runs WHERE key=?");
    q->bind(1, key);
    if (!q->step()) return std::nullopt;
    return q->int64(0);
  }

  long long insert_run(const RunRecord& r, const std::string& status, int attempt) {
    const double now = now_epoch();
    db.prepare(
          "INSERT INTO runs(key, case_name, case_file, repeat_index, attempt, status, command, "
          "workdir, launch_time, host, aerun_version, git_commit, runner_pid, log_path, "
          "created_at, updated_at, runner_start, runner_boot, heartbeat, case_version, "
          "case_digest, session_id) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        ->bind(1, r.key)
        .bind(2, r.case_name)
        .bind(3, r.case_file)
        .bind(4, r.repeat_index)
        .bind(5, attempt)
        .bind(6, status)
        .bind(7, r.command)
        .bind(8, r.workdir)
        .bind(9, r.launch_time)
        .bind(10, r.host)
        .bind(11, r.aerun_version)
        .bind(12, r.git_commit)
        .bind(13, r.runner_pid)
        .bind(14, r.log_path)
        .bind(15, now)
        .bind(16, now)
        .bind(17, r.runner_start)
        .bind(18, r.runner_boot)
        .bind(19, status == run_status::running ? std::optional<double>(now) : std::nullopt)
        .bind(20, r.case_version)
        .bind(21, r.case_digest)
        .bind(22, session_or_null(r))
        .run();
    const long long id = db.last_insert_rowid();
    write_job(id, r);
    return id;
  }

  // The batch-job columns and the run directory, from r.
  void write_job(long long id, const RunRecord& r) {
    db.prepare(
          "UPDATE runs SET scheduler=?, job_id=?, array_index=?, submit_time=?, "
          "job_start_time=?, queue_wait_s=?, scheduler_state=?, scheduler_reason=?, "
          "rundir=CASE WHEN ?10='' THEN rundir ELSE ?10 END, "
          "nodes=CASE WHEN ?11='' THEN nodes ELSE ?11 END WHERE id=?9")
        ->bind(1, r.scheduler)
        .bind(2, r.job_id)
        .bind(3, r.array_index)
        .bind(4, r.submit_time)
        .bind(5, r.job_start_time)
        .bind(6, r.queue_wait_s)
        .bind(7, r.scheduler_state)
        .bind(8, r.scheduler_reason)
        .bind(9, id)
        .bind(10, r.rundir)
        .bind(11, r.nodes)
        .run();
  }

  void write_params_and_env(long long id, const RunRecord& r) {
    db.prepare("DELETE FROM run_params WHERE run_id=?")->bind(1, id).run();
    db.prepare("DELETE FROM run_env WHERE run_id=?")->bind(1, id).run();
    int pos = 0;
    for (const auto& [name, value] : r.params) {
      auto q = db.prepare(
          "INSERT INTO run_params(run_id, name, value, num, position) VALUES(?,?,?,?,?)");
      q->bind(1, id).bind(2, name).bind(3, value.text()).bind(4, value.number()).bind(5, pos++);
      q->run();
    }
    pos = 0;
    for (const auto& [name, value] : r.env) {
      auto q = db.prepare("INSERT INTO run_env(run_id, name, value, position) VALUES(?,?,?,?)");
      q->bind(1, id).bind(2, name).bind(3, value.text()).bind(4, pos++);
      q->run();
    }
  }

  void clear_results(long long id) {
    db.prepare("DELETE FROM metrics WHERE run_id=?")->bind(1, id).run();
    db.prepare("DELETE FROM series WHERE run_id=?")->bind(1, id).run();
    db.prepare("DELETE FROM run_warnings WHERE run_id=?")->bind(1, id).run();
  }

  // A series longer than this is written kSeriesRowsPerTransaction points per transaction, so that
  // no write holds the store's lock for long (10 M points took 23 s in one): the first part with
  // the run's outcome, the rest by write_pending_series() once that transaction is committed.
  static constexpr size_t kSeriesRowsPerTransaction = 50'000;

  // The rest of a series still to write after the transaction that wrote the run: where it
  // continues, and the warning row that says so until the last part is written (it stays when
  // the writing process dies in between: the series is then known to be incomplete).
  struct PendingSeries {
    long long id = 0;
    const std::vector<MetricSeries>* series = nullptr;  // the caller's, alive until it returns
    size_t metric = 0, point = 0;
    std::string marker;
  };
  std::optional<PendingSeries> pending_series;

  // Writes up to `limit` points of p's series from where it stands; true when all are written.
  bool write_series_part(PendingSeries& p, size_t limit) {
    auto q =
        db.prepare("INSERT INTO series(run_id, metric, idx, value, source_line) VALUES(?,?,?,?,?)");
    for (; p.metric < p.series->size(); ++p.metric, p.point = 0) {
      const MetricSeries& s = (*p.series)[p.metric];
      for (; p.point < s.points.size(); ++p.point) {
        if (limit-- == 0) return false;
        const SeriesPoint& pt = s.points[p.point];
        q->bind(1, p.id)
            .bind(2, s.name)
            .bind(3, pt.index)
            .bind(4, pt.value)
            .bind(5, pt.source_line);
        q->run();
        q->reset();
      }
    }
    return true;
  }

  // in_parts: a long series may be left to write_pending_series() (the caller calls it after
  // committing its own, outermost, transaction).
  void write_results(long long id, const RunRecord& r, bool in_parts = false) {
    clear_results(id);
    long long pos = 0;
    for (const auto& m : r.metrics) {
      auto q = db.prepare(
          "INSERT INTO metrics(run_id, name, value, unit, count, source_line, position) "
          "VALUES(?,?,?,?,?,?,?)");
      q->bind(1, id).bind(2, m.name).bind(3, m.value).bind(4, m.unit).bind(5, m.count);
      q->bind(6, m.source_line).bind(7, pos++).run();
    }
    std::vector<std::string> warnings = r.warnings;
    PendingSeries part{id, &r.series, 0, 0, {}};
    if (!write_series_part(part, in_parts ? kSeriesRowsPerTransaction : SIZE_MAX)) {
      size_t total = 0;
      for (const auto& s : r.series) total += s.points.size();
      part.marker = fmt::format(
          "series incomplete: {} points being written in parts by aerun process {} on {} (this "
          "line stays only if it stopped before the last part)",
          total, ::getpid(), self_identity().host);
      warnings.push_back(part.marker);
      pending_series = std::move(part);
    }
    for (size_t i = 0; i < warnings.size(); ++i)
      db.prepare("INSERT INTO run_warnings(run_id, position, text) VALUES(?,?,?)")
          ->bind(1, id)
          .bind(2, static_cast<long long>(i))
          .bind(3, warnings[i])
          .run();
  }

  // finish_run inside the caller's write transaction; false when another aerun took the run over.
  bool finish_locked(const RunRecord& r, bool in_parts) {
    auto id = id_of(r.key);
    if (id && r.runner_pid != 0) {
      // A local run whose claim another aerun took over (this one was thought dead): keep theirs.
      auto q = db.prepare(
          "SELECT runner_pid, host, runner_start, attempt FROM runs WHERE id=? AND job_id=''");
      q->bind(1, *id);
      if (q->step() && (q->int64(0) != r.runner_pid || q->text(1) != r.host ||
                        q->int64(2) != r.runner_start || q->int64(3) != r.attempt))
        return false;
    }
    if (!id) {
      id = insert_run(r, r.status, r.attempt);
      write_params_and_env(*id, r);
    }
    write_outcome(*id, r, in_parts);
    return true;
  }

  // The parts of a long series left by write_results, one transaction each, after the caller's
  // transaction committed. Stops when the run was run again or forgotten meanwhile (its marker
  // gone); the last part removes the marker.
  void write_pending_series() {
    if (!pending_series) return;
    PendingSeries p = std::move(*pending_series);
    pending_series.reset();
    for (bool done = false; !done;) {
      Transaction tx(db, Transaction::Mode::Immediate);
      long long position = 0;
      {
        auto q = db.prepare("SELECT position FROM run_warnings WHERE run_id=? AND text=?");
        q->bind(1, p.id).bind(2, p.marker);
        if (!q->step()) return;
        position = q->int64(0);
      }
      done = write_series_part(p, kSeriesRowsPerTransaction);
      if (done)
        db.prepare("DELETE FROM run_warnings WHERE run_id=? AND position=?")
            ->bind(1, p.id)
            .bind(2, position)
            .run();
      tx.commit();
      if (!done) ::usleep(5000);  // room for a waiting writer (it tries every kBusyRetryMs)
    }
  }

  void load_children(RunRecord& r) {
    {
      auto q = db.prepare("SELECT name, value FROM run_params WHERE run_id=? ORDER BY position");
      q->bind(1, r.id);
      while (q->step()) r.params.emplace_back(q->text(0), Value::parse(q->text(1)));
    }
    {
      auto q = db.prepare("SELECT name, value FROM run_env WHERE run_id=? ORDER BY position");
      q->bind(1, r.id);
      while (q->step()) r.env.emplace_back(q->text(0), Value::parse(q->text(1)));
    }
    {
      auto q = db.prepare(
          "SELECT name, value, unit, count, source_line FROM metrics WHERE run_id=? "
          "ORDER BY position");
      q->bind(1, r.id);
      while (q->step())
        r.metrics.push_back({q->text(0), q->real(1), q->text(2), q->int64(3), q->int64(4)});
    }
    {
      auto q = db.prepare(
          "SELECT metric, idx, value, source_line FROM series WHERE run_id=? ORDER BY rowid");
      q->bind(1, r.id);
      std::map<std::string, size_t> slot;
      while (q->step()) {
        const std::string name = q->text(0);
        auto [it, fresh] = slot.emplace(name, r.series.size());
        if (fresh) r.series.push_back({name, {}});
        r.series[it->second].points.push_back({q->int64(1), q->real(2), q->int64(3)});
      }
    }
    {
      auto q = db.prepare("SELECT text FROM run_warnings WHERE run_id=? ORDER BY position");
      q->bind(1, r.id);
      while (q->step()) r.warnings.push_back(q->text(0));
    }
  }

  static std::optional<long long> session_or_null(const RunRecord& r) {
    return r.session_id ? std::optional<long long>(r.session_id) : std::nullopt;
  }

  // Copies the finished attempt in row id into the history, with its metrics.
  void archive_attempt(long long id) {
    db.prepare(
          "INSERT INTO run_history(run_id, session_id, attempt, status, reason, case_version, "
          "case_digest, launch_time, end_time, startup_s, wall_s, host, job_id, log_path, "
          "log_sha256, log_state, archived_at) SELECT id, session_id, attempt, status, reason, "
          "case_version, case_digest, launch_time, end_time, startup_s, wall_s, host, job_id, "
          "log_path, log_sha256, log_state, ? FROM runs WHERE id=? AND status NOT IN "
          "('running', 'pending')")
        ->bind(1, now_epoch())
        .bind(2, id)
        .run();
    if (db.changes() == 0) return;
    const long long hist = db.last_insert_rowid();
    db.prepare(
          "INSERT INTO history_metrics(history_id, name, value, unit) SELECT ?, name, value, "
          "unit FROM metrics WHERE run_id=?")
        ->bind(1, hist)
        .bind(2, id)
        .run();
  }

  // A finished attempt's outcome into row id: status, reason, times, exit, rusage, log, the
  // batch-job fields, metrics and series.
  void write_outcome(long long id, const RunRecord& r, bool in_parts = false) {
    db.prepare(
          "UPDATE runs SET status=?, reason=?, launch_time=?, first_output_time=?, startup_time=?, "
          "end_time=?, startup_s=?, wall_s=?, exit_code=?, signal=?, user_cpu_s=?, sys_cpu_s=?, "
          "max_rss_kb=?, log_path=?, log_size=?, log_sha256=?, updated_at=?, child_pgid=NULL "
          "WHERE id=?")
        ->bind(1, r.status)
        .bind(2, r.reason)
        .bind(3, r.launch_time)
        .bind(4, r.first_output_time)
        .bind(5, r.startup_time)
        .bind(6, r.end_time)
        .bind(7, r.startup_s)
        .bind(8, r.wall_s)
        .bind(9, r.exit_code)
        .bind(10, r.signal)
        .bind(11, r.user_cpu_s)
        .bind(12, r.sys_cpu_s)
        .bind(13, r.max_rss_kb)
        .bind(14, r.log_path)
        .bind(15, r.log_size)
        .bind(16, r.log_sha256)
        .bind(17, now_epoch())
        .bind(18, id)
        .run();
    db.prepare("UPDATE runs SET heartbeat=NULL WHERE id=?")->bind(1, id).run();
    write_job(id, r);
    write_results(id, r, in_parts);
  }

  // begin_run inside the caller's write transaction.
  long long begin_locked(const RunRecord& r) {
    long long id = 0;
    if (auto existing = id_of(r.key)) {
      id = *existing;
      archive_attempt(id);
      db.prepare(
            "UPDATE runs SET case_name=?, case_file=?, repeat_index=?, attempt=attempt+1, "
            "status='running', reason='', command=?, workdir=?, launch_time=?, "
            "first_output_time=NULL, startup_time=NULL, end_time=NULL, startup_s=NULL, "
            "wall_s=NULL, "
            "exit_code=NULL, signal=NULL, user_cpu_s=0, sys_cpu_s=0, max_rss_kb=0, host=?, "
            "aerun_version=?, git_commit=?, runner_pid=?, log_path=?, log_size=0, log_sha256='', "
            "log_state='', "
            "updated_at=?, runner_start=?, runner_boot=?, heartbeat=?12, case_version=?, "
            "case_digest=?, session_id=? WHERE id=?")
          ->bind(1, r.case_name)
          .bind(2, r.case_file)
          .bind(3, r.repeat_index)
          .bind(4, r.command)
          .bind(5, r.workdir)
          .bind(6, r.launch_time)
          .bind(7, r.host)
          .bind(8, r.aerun_version)
          .bind(9, r.git_commit)
          .bind(10, r.runner_pid)
          .bind(11, r.log_path)
          .bind(12, now_epoch())
          .bind(13, r.runner_start)
          .bind(14, r.runner_boot)
          .bind(15, r.case_version)
          .bind(16, r.case_digest)
          .bind(17, session_or_null(r))
          .bind(18, id)
          .run();
      clear_results(id);
      write_job(id, r);
      db.prepare("UPDATE runs SET rundir=?, nodes=? WHERE id=?")
          ->bind(1, r.rundir)
          .bind(2, r.nodes)
          .bind(3, id)
          .run();
    } else {
      id = insert_run(r, run_status::running, 1);
    }
    write_params_and_env(id, r);
    return id;
  }

  std::optional<RunRecord> load_where(const std::string& where, const std::string& arg) {
    std::optional<RunRecord> r;
    {
      auto q = db.prepare("SELECT " + all_run_columns() + " FROM runs WHERE " + where);
      q->bind(1, arg);
      if (!q->step()) return std::nullopt;
      r = read_run(*q);
    }
    load_children(*r);
    return r;
  }
};

Store::Store(const std::string& path) : path_(path) {
  if (path != ":memory:" && !path.empty()) {
    const auto parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec)
      throw SystemError("store " + path + ": cannot create its folder " + parent.string() + ": " +
                        ec.message());
  }
  impl_ = std::make_unique<Impl>(path);
}

Store::Store(const std::string& path, ReadOnly) : path_(path) {
  impl_ = std::make_unique<Impl>(path, ReadOnly{});
}

Store Store::read_untouched(const std::string& path, const std::string& scratch) {
  {
    Database probe(path, /*read_only=*/true);
    if (user_version(probe) == static_cast<int>(store_migrations().size()))
      return Store(path, ReadOnly{});
    Database copy(scratch);
    sqlite3_backup* b = sqlite3_backup_init(copy.handle(), "main", probe.handle(), "main");
    if (!b) throw SystemError("cannot copy store " + path + ": " + sqlite3_errmsg(copy.handle()));
    const int rc = sqlite3_backup_step(b, -1);
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE)
      throw SystemError("cannot copy store " + path + ": " + sqlite3_errstr(rc));
  }
  return Store(scratch);
}

long long Store::attempts_without_case() const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  auto q = impl_->db.prepare(
      "SELECT (SELECT count(*) FROM runs WHERE case_name IS NULL) + (SELECT count(*) FROM "
      "run_history h JOIN runs r ON r.id=h.run_id WHERE r.case_name IS NULL)");
  return q->step() ? q->int64(0) : 0;
}

Store::~Store() = default;
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

int Store::latest_schema_version() {
  return static_cast<int>(store_migrations().size());
}

static_assert(Store::kBusyTimeoutMs == Database::kBusyTimeoutMs,
              "one busy limit: the store's default is the connection's");

void Store::set_busy_timeout_ms(int ms) {
  impl_->db.set_busy_timeout_ms(ms);
}

int Store::schema_version() const {
  return user_version(impl_->db);
}

long long Store::begin_run(const RunRecord& r) {
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  const long long id = impl_->begin_locked(r);
  tx.commit();
  return id;
}

namespace {

// Seconds of this boot (CLOCK_BOOTTIME: suspend included, never set).
double boot_now() {
  timespec ts{};
  ::clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace

bool Store::Impl::silent_long_enough(const RunRecord& prev) {
  const ProcessIdentity& self = self_identity();
  const std::string watcher = self.host + "|" + self.boot_id;
  const double now = boot_now();
  const double hb = prev.heartbeat.value_or(-1);
  auto q = db.prepare("SELECT heartbeat, first_seen FROM claim_watch WHERE run_id=? AND watcher=?");
  q->bind(1, prev.id).bind(2, watcher);
  if (q->step() && q->real(0) == hb) return now - q->real(1) > Store::kStaleAfterS;
  db.prepare(
        "INSERT OR REPLACE INTO claim_watch(run_id, watcher, heartbeat, first_seen) "
        "VALUES(?,?,?,?)")
      ->bind(1, prev.id)
      .bind(2, watcher)
      .bind(3, hb)
      .bind(4, now)
      .run();
  return false;
}

Store::Claim Store::claim_run(const RunRecord& r,
                              const std::function<bool(const RunRecord&)>& keep) {
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  Claim c;
  if (auto prev = impl_->load_where("key=?", r.key)) {
    // Another host's claim that looks silent by this host's clock (which may be ahead): taken
    // over only once this host has seen its heartbeat stand still for kStaleAfterS of its own
    // clock; until then it is busy (the loop asks again while it waits).
    if (prev->status == run_status::stale && prev->job_id.empty() &&
        prev->host != self_identity().host &&
        !provably_dead({prev->host, prev->runner_pid, prev->runner_start, prev->runner_boot}) &&
        !impl_->silent_long_enough(*prev)) {
      prev->status = run_status::running;
      prev->reason.clear();
      c.outcome = Claim::Outcome::Busy;
      c.found = std::move(*prev);
      tx.commit();  // the watch is kept
      return c;
    }
    const bool mine = prev->runner_pid == r.runner_pid && prev->host == r.host &&
                      prev->runner_start == r.runner_start;
    const bool batch_in_flight = !prev->job_id.empty() && (prev->status == run_status::pending ||
                                                           prev->status == run_status::running);
    if (keep(*prev)) c.outcome = Claim::Outcome::Done;
    if ((prev->status == run_status::running && !mine) || batch_in_flight)
      c.outcome = Claim::Outcome::Busy;
    if (c.outcome != Claim::Outcome::Claimed) {
      c.found = std::move(*prev);
      return c;
    }
    auto q = impl_->db.prepare(
        "SELECT child_pgid, child_start FROM runs WHERE key=? AND child_pgid IS NOT NULL AND "
        "host=? AND runner_boot=?");
    q->bind(1, r.key).bind(2, r.host).bind(3, r.runner_boot);
    if (q->step()) {
      c.leftover_pgid = static_cast<int>(q->int64(0));
      c.leftover_start = q->int64(1);
    }
  }
  c.id = impl_->begin_locked(r);
  {
    auto q = impl_->db.prepare("SELECT attempt FROM runs WHERE id=?");
    q->bind(1, c.id);
    c.attempt = q->step() ? static_cast<int>(q->int64(0)) : 1;
  }
  tx.commit();
  return c;
}

void Store::set_running_child(long long id, int pgid, long long start_ticks) {
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  impl_->db.prepare("UPDATE runs SET child_pgid=?, child_start=? WHERE id=? AND status='running'")
      ->bind(1, static_cast<long long>(pgid))
      .bind(2, start_ticks)
      .bind(3, id)
      .run();
  tx.commit();
}

void Store::set_running_log(long long id, const std::string& path) {
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  impl_->db.prepare("UPDATE runs SET log_path=? WHERE id=? AND status='running'")
      ->bind(1, path)
      .bind(2, id)
      .run();
  tx.commit();
}

std::vector<long long> Store::heartbeat(const std::vector<long long>& ids) {
  std::vector<long long> lost;
  if (ids.empty()) return lost;
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  const double now = now_epoch();
  const ProcessIdentity& self = self_identity();
  for (long long id : ids) {
    impl_->db
        .prepare(
            "UPDATE runs SET heartbeat=? WHERE id=? AND status='running' AND runner_pid=? AND "
            "host=? AND runner_start=?")
        ->bind(1, now)
        .bind(2, id)
        .bind(3, static_cast<long long>(self.pid))
        .bind(4, self.host)
        .bind(5, self.start_ticks)
        .run();
    if (impl_->db.changes() == 0) lost.push_back(id);
  }
  tx.commit();
  return lost;
}

bool Store::finish_run(const RunRecord& r) {
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  if (!impl_->finish_locked(r, tx.outermost())) return false;
  tx.commit();
  impl_->write_pending_series();
  return true;
}

Store::Ingested Store::store_ingested(RunRecord& r) {
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  Ingested what = Ingested::Added;
  if (auto prev = impl_->load_where("key=?", r.key)) {
    if (prev->log_size == r.log_size && prev->log_sha256 == r.log_sha256 &&
        prev->params == r.params) {
      r.status = prev->status;
      return Ingested::Unchanged;
    }
    r.attempt = prev->attempt + 1;
    impl_->begin_locked(r);  // bumps the attempt, keeps the earlier one in the history
    what = Ingested::Updated;
  }
  impl_->finish_locked(r, tx.outermost());
  // The log is the user's own file: prune and forget never touch it (issue 28).
  impl_->db.prepare("UPDATE runs SET log_state=? WHERE key=?")
      ->bind(1, std::string(kForeignLog))
      .bind(2, r.key)
      .run();
  tx.commit();
  impl_->write_pending_series();
  return what;
}

void Store::update_job(const RunRecord& r) {
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Immediate);
  const auto id = impl_->id_of(r.key);
  if (!id) throw SystemError("no run with key " + r.key + " to update");
  db.prepare("UPDATE runs SET status=?, reason=?, updated_at=? WHERE id=?")
      ->bind(1, r.status)
      .bind(2, r.reason)
      .bind(3, now_epoch())
      .bind(4, *id)
      .run();
  impl_->write_job(*id, r);
  tx.commit();
}

std::optional<RunRecord> Store::find_by_key(const std::string& key) const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  return impl_->load_where("key=?", key);
}

namespace {

// The least string greater than every string that starts with prefix ("" when there is none):
// `key >= prefix AND key < bound` finds a prefix through the key index.

std::string prefix_bound(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xff) prefix.pop_back();
  if (!prefix.empty()) prefix.back() = static_cast<char>(prefix.back() + 1);
  return prefix;
}

}  // namespace

std::optional<RunRecord> Store::find(const std::string& ref) const {
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Deferred);
  if (all_digits(ref))
    if (auto r = impl_->load_where("id=CAST(? AS INTEGER)", ref)) return r;
  if (auto r = impl_->load_where("key=?", ref)) return r;
  if (ref.size() < 4) return std::nullopt;
  std::vector<std::string> keys;
  {
    // A range on the key index, not a scan: keys from the prefix up to its bound.
    // (Byte-wise, every key in [prefix, bound) starts with the prefix; no key is all 0xff.)
    const std::string bound = prefix_bound(ref);
    if (bound.empty()) return std::nullopt;
    auto q = db.prepare("SELECT key FROM runs WHERE key >= ?1 AND key < ?2 LIMIT 6");
    q->bind(1, ref).bind(2, bound);
    while (q->step()) keys.push_back(q->text(0));
  }
  if (keys.empty()) return std::nullopt;
  if (keys.size() > 1) {
    std::string shown;
    for (size_t i = 0; i < keys.size() && i < 5; ++i) shown += (i ? ", " : "") + keys[i];
    throw InputError(SourceLoc{}, "run",
                     fmt::format("'{}' is ambiguous: it starts the keys of {} runs ({}{})", ref,
                                 keys.size() > 5 ? "more than 5" : std::to_string(keys.size()),
                                 shown, keys.size() > 5 ? ", ..." : ""));
  }
  return impl_->load_where("key=?", keys[0]);
}

namespace {

// A string as a JSON string literal (for json_each).
std::string json_quote(const std::string& s) {
  std::string out = "\"";
  for (const unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20) {
      out += fmt::format("\\u{:04x}", ch);
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "\"";
}

// The WHERE clause of a filter on runs (as r), holding only the conditions it sets, so that a
// case's runs come straight out of the runs_case_summary index; binds ?1 (the case) and the rest.
struct RunWhere {
  const RunFilter& f;
  std::string bound;
  std::string sql;

  explicit RunWhere(const RunFilter& filter) : f(filter), bound(prefix_bound(filter.key_prefix)) {
    sql = "r.case_name=?1";
    if (!f.status.empty()) sql += " AND r.status=?2";
    if (!f.key_prefix.empty())
      sql += bound.empty() ? " AND r.key >= ?3 AND 0" : " AND r.key >= ?3 AND r.key < ?4";
    if (f.session_id != 0) sql += " AND r.session_id=?5";
    if (f.id_from != 0) sql += " AND r.id >= ?8";
    if (f.id_to != 0) sql += " AND r.id <= ?9";
  }
  // The cases the filter reads, in name order: its own, or every case stored.
  std::vector<std::string> cases(sqlite::Database& db) const {
    if (!f.case_name.empty()) return {f.case_name};
    std::vector<std::string> out;
    auto q = db.prepare("SELECT DISTINCT case_name FROM runs ORDER BY case_name");
    while (q->step()) out.push_back(q->text(0));
    return out;
  }
  void bind(Statement& q, const std::string& case_name) const {
    q.bind(1, case_name);
    if (!f.status.empty()) q.bind(2, f.status);
    if (!f.key_prefix.empty()) q.bind(3, f.key_prefix);
    if (!f.key_prefix.empty() && !bound.empty()) q.bind(4, bound);
    if (f.session_id != 0) q.bind(5, f.session_id);
    if (f.id_from != 0) q.bind(8, f.id_from);
    if (f.id_to != 0) q.bind(9, f.id_to);
  }
};

// How many runs of case_name the filter selects, and their least and greatest ids.
// Three queries: SQLite counts an index range without reading its rows and finds a min() or a
// max() alone with one seek, where count, min and max in one query step through every row.
Store::IdSpan id_span_of(Database& db, const RunWhere& rw, const std::string& case_name,
                         bool count = true) {
  auto one = [&](const char* what) {
    auto q = db.prepare(std::string("SELECT ") + what + " FROM runs r WHERE " + rw.sql);
    rw.bind(*q, case_name);
    return q->step() ? q->int64(0) : 0;
  };
  Store::IdSpan span;
  if (count) span.runs = one("count(*)");
  if (span.runs > 0 || !count) {
    span.first = one("min(r.id)");
    span.last = one("max(r.id)");
  }
  return span;
}

}  // namespace

Store::Outline Store::outline(const RunFilter& f, bool with_names) const {
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Deferred);
  const RunWhere rw(f);
  const std::string& where = rw.sql;
  const std::vector<std::string> cases = rw.cases(db);
  Outline out;
  std::unordered_set<std::string> seen_params, seen_metrics;
  for (const auto& c : cases) {
    auto bind = [&](Statement& q) { rw.bind(q, c); };
    {
      auto q = db.prepare("SELECT count(*) FROM runs r WHERE " + where);
      bind(*q);
      if (q->step()) out.runs += q->int64(0);
    }
    // Up to 3 case files, each the least after the one before: a seek each in the index
    // runs_case_file (a DISTINCT scan reads every run of a case that has only one).
    for (std::string after; out.case_files[c].size() < 3;) {
      auto q = db.prepare("SELECT r.case_file FROM runs r WHERE " + where +
                          " AND r.case_file > ?10 ORDER BY r.case_file LIMIT 1");
      bind(*q);
      q->bind(10, after);
      if (!q->step()) break;
      after = q->text(0);
      out.case_files[c].push_back(after);
    }
    if (out.case_files[c].empty()) out.case_files.erase(c);
    if (!with_names) continue;
    // The names of one kind of child in order of first appearance (runs by id, then order), for
    // the case c. Usually every run has the names of the first run that has any: those are
    // taken, and one query inside SQLite checks that no run has another (far cheaper than
    // stepping every child row out of it); only when one does are all rows read in order.
    auto names_of = [&](const std::string& table, const std::string& order) {
      std::vector<std::string> names;
      {
        auto q =
            db.prepare("SELECT c.name FROM " + table + " c WHERE c.run_id=(SELECT c2.run_id FROM " +
                       table + " c2 JOIN runs r ON r.id=c2.run_id WHERE " + where +
                       " ORDER BY r.id LIMIT 1) ORDER BY " + order);
        bind(*q);
        while (q->step()) names.push_back(q->text(0));
      }
      if (names.empty()) return names;  // no run has any
      std::string json = "[";
      for (const auto& n : names) json += (json.size() > 1 ? "," : "") + json_quote(n);
      json += "]";
      try {
        auto q = db.prepare("SELECT 1 FROM " + table + " c JOIN runs r ON r.id=c.run_id WHERE " +
                            where + " AND c.name NOT IN (SELECT value FROM json_each(?6)) LIMIT 1");
        bind(*q);
        q->bind(6, json);
        if (!q->step()) return names;
      } catch (const SystemError&) {
        // A name JSON cannot carry (invalid UTF-8): read every row instead.
      }
      names.clear();
      std::unordered_set<std::string> seen;
      auto q = db.prepare("SELECT c.name FROM " + table + " c JOIN runs r ON r.id=c.run_id WHERE " +
                          where + " ORDER BY r.id, " + order);
      bind(*q);
      while (q->step()) {
        std::string n = q->text(0);
        if (seen.insert(n).second) names.push_back(std::move(n));
      }
      return names;
    };
    for (auto& n : names_of("run_params", "c.position"))
      if (seen_params.insert(n).second) out.params.push_back(std::move(n));
    out.case_metrics[c] = names_of("metrics", "c.position");
    for (const auto& n : out.case_metrics[c])
      if (seen_metrics.insert(n).second) out.metrics.push_back(n);
  }
  return out;
}

Store::IdSpan Store::id_span(const RunFilter& f, bool count) const {
  if (f.case_name.empty()) throw std::invalid_argument("Store::id_span: the filter names no case");
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  return id_span_of(impl_->db, RunWhere(f), f.case_name, count);
}

std::vector<RunRecord> Store::list(const RunFilter& f) const {
  std::vector<RunRecord> out;
  for_each(f, [&](RunRecord& r) {
    out.push_back(std::move(r));
    return true;
  });
  return out;
}

void Store::for_each(const RunFilter& f, const std::function<bool(RunRecord&)>& fn) const {
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Deferred);
  const RunWhere rw(f);
  const std::string& where = rw.sql;
  const std::vector<std::string> cases = rw.cases(db);
  const RunColumns columns(f);
  const double now = now_epoch();
  // Rows of one run taken in any order and kept in the order of their key (`order`).
  std::vector<long long> order;
  const auto in_order = [&order](auto& list, long long key) {
    size_t at = order.size();
    while (at > 0 && order[at - 1] > key) --at;
    order.insert(order.begin() + static_cast<long>(at), key);
    std::rotate(list.begin() + static_cast<long>(at), list.end() - 1, list.end());
  };
  for (const auto& case_name : cases) {
    const IdSpan span = id_span_of(db, rw, case_name);
    const long long count = span.runs, lo = span.first, hi = span.last;
    if (count == 0) continue;
    // A child table (parameters, environment, metrics; clustered by run id) is read in one
    // sequential pass over the range of the selected ids when they are at least half of the
    // range (the rows of other runs are skipped below), else joined to the selected runs (an
    // index lookup per run). Either way its rows come in run id order.
    const bool dense = count * 2 >= hi - lo + 1;
    const auto children = [&](const std::string& cols, const std::string& table,
                              const std::vector<std::string>* names = nullptr) {
      std::string only;  // "AND c.name IN (?10, ?11, …)"
      for (size_t i = 0; names && i < names->size(); ++i)
        only += fmt::format("{}?{}", i == 0 ? " AND c.name IN (" : ", ", 10 + i);
      if (names) only += names->empty() ? " AND 0" : ")";
      auto q = db.prepare(
          dense ? "SELECT " + cols + " FROM " + table + " c WHERE c.run_id BETWEEN ?1 AND ?2" +
                      only + " ORDER BY c.run_id"
                : "SELECT " + cols + " FROM " + table + " c JOIN runs r ON r.id=c.run_id WHERE " +
                      where + only + " ORDER BY r.id");
      if (dense)
        q->bind(1, lo).bind(2, hi);
      else
        rw.bind(*q, case_name);
      for (size_t i = 0; names && i < names->size(); ++i)
        q->bind(static_cast<int>(10 + i), (*names)[i]);
      return q;
    };
    // The runs' own rows: from the index runs_case_summary when it holds every column read, else
    // in one pass over the id range (dense), else through the index.
    const bool scan = dense && !columns.summary;
    auto runs = db.prepare("SELECT " + columns.sql + " FROM runs r" +
                           (scan ? " NOT INDEXED WHERE r.id BETWEEN ?20 AND ?21 AND " : " WHERE ") +
                           where + " ORDER BY r.id");
    rw.bind(*runs, case_name);
    if (scan) runs->bind(20, lo).bind(21, hi);
    // Parameters, environment and metrics come in their key's order (by name) and are put in
    // their own order here: sorting a run's few rows costs less than SQLite's sorter for each run.
    auto params = children("c.run_id, c.name, c.value, c.position", "run_params");
    auto metrics =
        children(f.with_metric_details ? "c.run_id, c.name, c.value, c.position, c.unit, c.count, "
                                         "c.source_line"
                                       : "c.run_id, c.name, c.value, c.position",
                 "metrics", f.metric_names ? &*f.metric_names : nullptr);
    std::optional<decltype(params)> env, series;
    if (f.with_env) env.emplace(children("c.run_id, c.name, c.value, c.position", "run_env"));
    if (f.with_series) {
      series.emplace(db.prepare(
          "SELECT c.run_id, c.metric, c.idx, c.value, c.source_line FROM series c JOIN runs r ON "
          "r.id=c.run_id WHERE " +
          where + " ORDER BY r.id, c.rowid"));
      rw.bind(**series, case_name);
    }
    // Each child cursor: whether it holds an unread row (its run id in column 0).
    struct Cursor {
      Statement* q;
      bool has = false;
      void next() { has = q && q->step(); }
    };
    Cursor cp{&*params}, ce{env ? &**env : nullptr}, cm{&*metrics},
        cs{series ? &**series : nullptr};
    for (Cursor* c : {&cp, &ce, &cm, &cs}) c->next();
    auto rows_of = [](Cursor& c, long long id, auto&& take) {
      while (c.has && c.q->int64(0) < id) c.next();
      for (; c.has && c.q->int64(0) == id; c.next()) take(*c.q);
    };
    size_t params_seen = 0, metrics_seen = 0;  // the last run's: room made for as many
    while (runs->step()) {
      RunRecord r = read_run(*runs, columns, now, &db);
      r.params.reserve(params_seen);
      r.metrics.reserve(metrics_seen);
      order.clear();
      rows_of(cp, r.id, [&](Statement& q) {
        r.params.emplace_back(q.text(1), Value::parse(q.text(2)));
        in_order(r.params, q.int64(3));
      });
      order.clear();
      rows_of(ce, r.id, [&](Statement& q) {
        r.env.emplace_back(q.text(1), Value::parse(q.text(2)));
        in_order(r.env, q.int64(3));
      });
      order.clear();
      rows_of(cm, r.id, [&](Statement& q) {
        if (f.with_metric_details)
          r.metrics.push_back({q.text(1), q.real(2), q.text(4), q.int64(5), q.int64(6)});
        else
          r.metrics.push_back({q.text(1), q.real(2), {}, 0, 0});
        in_order(r.metrics, q.int64(3));
      });
      rows_of(cs, r.id, [&](Statement& q) {
        std::string name = q.text(1);
        auto it = std::find_if(r.series.begin(), r.series.end(),
                               [&](const auto& s) { return s.name == name; });
        if (it == r.series.end()) {
          r.series.push_back({std::move(name), {}});
          it = r.series.end() - 1;
        }
        it->points.push_back({q.int64(2), q.real(3), q.int64(4)});
      });
      params_seen = r.params.size();
      metrics_seen = r.metrics.size();
      if (!fn(r)) return;
    }
  }
}

int Store::remove(const std::vector<long long>& ids) {
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  int removed = 0;
  for (long long id : ids) {
    impl_->db.prepare("DELETE FROM runs WHERE id=?")->bind(1, id).run();
    removed += impl_->db.changes();
    impl_->db.prepare("DELETE FROM claim_watch WHERE run_id=?")->bind(1, id).run();
  }
  tx.commit();
  return removed;
}

std::vector<std::string> Store::case_names() const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  std::vector<std::string> names;
  auto q = impl_->db.prepare("SELECT DISTINCT case_name FROM runs ORDER BY case_name");
  while (q->step()) names.push_back(q->text(0));
  return names;
}

int Store::reap_orphans(const std::string& host) {
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Immediate);
  std::vector<std::pair<long long, ProcessIdentity>> running;
  {
    auto q = db.prepare(
        "SELECT id, runner_pid, runner_start FROM runs WHERE status='running' AND host=? AND "
        "job_id=''");
    q->bind(1, host);
    while (q->step())
      running.push_back({q->int64(0), {host, static_cast<int>(q->int64(1)), q->int64(2), ""}});
  }
  int reaped = 0;
  for (const auto& [id, owner] : running) {
    if (owner.pid <= 0) continue;
    const long long started = process_start_ticks(owner.pid);
    const bool gone = started == 0 || (owner.start_ticks != 0 && started != owner.start_ticks);
    if (!gone) continue;
    db.prepare("UPDATE runs SET status='stale', reason=?, updated_at=? WHERE id=?")
        ->bind(1, fmt::format("aerun process {} disappeared", owner.pid))
        .bind(2, now_epoch())
        .bind(3, id)
        .run();
    ++reaped;
  }
  tx.commit();
  return reaped;
}

namespace {

constexpr const char* kSessionColumns =
    "id, label, kind, fresh, started_at, ended_at, aerun_version, host, cluster, scheduler, "
    "user, git_commit, git_dirty, cases, env_record";

SessionInfo read_session(const Statement& q) {
  SessionInfo s;
  s.id = q.int64(0);
  s.label = q.text(1);
  s.kind = q.text(2);
  s.fresh = q.int64(3) != 0;
  s.started_at = q.real(4);
  s.ended_at = q.opt_real(5);
  s.aerun_version = q.text(6);
  s.host = q.text(7);
  s.cluster = q.text(8);
  s.scheduler = q.text(9);
  s.user = q.text(10);
  s.git_commit = q.text(11);
  if (auto d = q.opt_int(12)) s.git_dirty = *d != 0;
  s.cases = q.text(13);
  s.env_record = q.text(14);
  return s;
}

}  // namespace

long long Store::open_session(SessionInfo& s) {
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Immediate);
  {
    auto q = db.prepare("SELECT id FROM sessions WHERE label=?");
    q->bind(1, s.label);
    if (q->step()) {
      s.id = q->int64(0);
      db.prepare(
            "UPDATE sessions SET ended_at=NULL, env_record=CASE WHEN env_record='' THEN ?2 ELSE "
            "env_record END WHERE id=?1")
          ->bind(1, s.id)
          .bind(2, s.env_record)
          .run();
      tx.commit();
      return s.id;
    }
  }
  if (s.started_at == 0) s.started_at = now_epoch();
  db.prepare(
        "INSERT INTO sessions(label, kind, fresh, started_at, aerun_version, host, cluster, "
        "scheduler, user, git_commit, git_dirty, cases, env_record) "
        "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)")
      ->bind(1, s.label)
      .bind(2, s.kind)
      .bind(3, s.fresh ? 1 : 0)
      .bind(4, s.started_at)
      .bind(5, s.aerun_version)
      .bind(6, s.host)
      .bind(7, s.cluster)
      .bind(8, s.scheduler)
      .bind(9, s.user)
      .bind(10, s.git_commit)
      .bind(11, s.git_dirty ? std::optional<int>(*s.git_dirty ? 1 : 0) : std::nullopt)
      .bind(12, s.cases)
      .bind(13, s.env_record)
      .run();
  s.id = db.last_insert_rowid();
  tx.commit();
  return s.id;
}

std::string Store::save_env_record(const EnvRecord& rec) {
  std::vector<std::string> texts;
  std::string list;  // what the record's digest is of
  for (const auto& item : rec.items) {
    texts.push_back(sha256_hex(item.text));
    list += item.name + '\0' + item.status + '\0' + texts.back() + '\n';
  }
  const std::string digest = sha256_hex(list);
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Immediate);
  {
    auto q = db.prepare("SELECT 1 FROM env_records WHERE digest=?");
    q->bind(1, digest);
    if (q->step()) return digest;  // stored already (the transaction ends unchanged)
  }
  db.prepare("INSERT INTO env_records(digest, created_at) VALUES(?,?)")
      ->bind(1, digest)
      .bind(2, now_epoch())
      .run();
  for (size_t i = 0; i < rec.items.size(); ++i) {
    const EnvItem& item = rec.items[i];
    db.prepare("INSERT OR IGNORE INTO env_texts(digest, bytes, text) VALUES(?,?,?)")
        ->bind(1, texts[i])
        .bind(2, static_cast<long long>(item.text.size()))
        .bind(3, item.text)
        .run();
    db.prepare(
          "INSERT INTO env_record_items(record, position, name, status, text_digest) "
          "VALUES(?,?,?,?,?)")
        ->bind(1, digest)
        .bind(2, static_cast<long long>(i))
        .bind(3, item.name)
        .bind(4, item.status)
        .bind(5, texts[i])
        .run();
  }
  tx.commit();
  return digest;
}

std::optional<EnvRecord> Store::env_record(const std::string& digest) const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  {
    auto q = impl_->db.prepare("SELECT 1 FROM env_records WHERE digest=?");
    q->bind(1, digest);
    if (!q->step()) return std::nullopt;
  }
  EnvRecord rec;
  auto q = impl_->db.prepare(
      "SELECT i.name, i.status, t.text FROM env_record_items i JOIN env_texts t ON "
      "t.digest=i.text_digest WHERE i.record=? ORDER BY i.position");
  q->bind(1, digest);
  while (q->step()) rec.items.push_back({q->text(0), q->text(1), q->text(2)});
  return rec;
}

void Store::close_session(long long id) {
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  impl_->db.prepare("UPDATE sessions SET ended_at=? WHERE id=?")
      ->bind(1, now_epoch())
      .bind(2, id)
      .run();
  tx.commit();
}

std::vector<SessionInfo> Store::sessions() const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  std::vector<SessionInfo> out;
  auto q = impl_->db.prepare(std::string("SELECT ") + kSessionColumns +
                             " FROM sessions ORDER BY started_at, id");
  while (q->step()) out.push_back(read_session(*q));
  return out;
}

std::optional<SessionInfo> Store::find_session(const std::string& ref) const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  auto q = impl_->db.prepare(std::string("SELECT ") + kSessionColumns +
                             " FROM sessions WHERE label=?1 OR (?2 AND id=CAST(?1 AS INTEGER)) "
                             "ORDER BY label=?1 DESC LIMIT 1");
  q->bind(1, ref).bind(2, all_digits(ref) ? 1 : 0);
  if (!q->step()) return std::nullopt;
  return read_session(*q);
}

namespace {

// An earlier attempt (a run_history row, with run_history's columns in this order) over the
// current row `r` of its run: what differs between attempts is replaced, series dropped.
constexpr const char* kHistoryColumns =
    "h.id, h.run_id, h.session_id, h.attempt, h.status, h.reason, h.case_version, h.case_digest, "
    "h.launch_time, h.end_time, h.startup_s, h.wall_s, h.host, h.job_id, h.log_path, h.log_sha256, "
    "h.log_state";

void apply_history(RunRecord& r, const Statement& q) {
  r.session_id = q.int64(2);
  r.attempt = static_cast<int>(q.int64(3));
  r.status = q.text(4);
  r.reason = q.text(5);
  r.case_version = q.text(6);
  r.case_digest = q.text(7);
  r.launch_time = q.opt_real(8);
  r.end_time = q.opt_real(9);
  r.startup_s = q.opt_real(10);
  r.wall_s = q.opt_real(11);
  r.host = q.text(12);
  r.job_id = q.text(13);
  r.log_path = q.text(14);
  r.log_sha256 = q.text(15);
  r.log_state = q.text(16);
  r.first_output_time.reset();
  r.startup_time.reset();
  r.exit_code.reset();
  r.signal.reset();
  r.metrics.clear();
  r.series.clear();
}

}  // namespace

std::vector<RunRecord> Store::session_runs(long long session, const std::string& case_name) const {
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Deferred);
  std::vector<RunRecord> out;
  {
    auto q = db.prepare("SELECT " + all_run_columns() +
                        " FROM runs WHERE session_id=? AND (?2='' OR case_name=?2) ORDER BY id");
    q->bind(1, session).bind(2, case_name);
    while (q->step()) out.push_back(read_run(*q));
  }
  for (auto& r : out) impl_->load_children(r);
  // Runs whose latest attempt is of a later session: their last attempt of this one.
  std::vector<std::pair<long long, long long>> earlier;  // history id, run id
  {
    auto q = db.prepare(
        "SELECT max(h.id), h.run_id FROM run_history h JOIN runs r ON r.id=h.run_id "
        "WHERE h.session_id=?1 AND (r.session_id IS NULL OR r.session_id<>?1) AND "
        "(?2='' OR r.case_name=?2) GROUP BY h.run_id ORDER BY h.run_id");
    q->bind(1, session).bind(2, case_name);
    while (q->step()) earlier.emplace_back(q->int64(0), q->int64(1));
  }
  for (const auto& [hist, run] : earlier) {
    auto r = impl_->load_where("id=CAST(? AS INTEGER)", std::to_string(run));
    if (!r) continue;
    {
      auto q =
          db.prepare(std::string("SELECT ") + kHistoryColumns + " FROM run_history h WHERE h.id=?");
      q->bind(1, hist);
      if (!q->step()) continue;
      apply_history(*r, *q);
    }
    auto m = db.prepare("SELECT name, value, unit FROM history_metrics WHERE history_id=?");
    m->bind(1, hist);
    while (m->step()) r->metrics.push_back({m->text(0), m->real(1), m->text(2), 1, 0});
    out.push_back(std::move(*r));
  }
  return out;
}

bool Store::import_attempt(const RunRecord& r) {
  auto& db = impl_->db;
  // Another store's log path names a file of another machine (or, by chance, one here): it is
  // never aerun's to compress or remove (issue 28). A pruned log stays pruned.
  const std::string imported_state = r.log_state == "pruned" ? r.log_state : kForeignLog;
  Transaction tx(db, Transaction::Mode::Immediate);
  const double none = -1;
  {
    auto q = db.prepare(
        "SELECT 1 FROM runs WHERE key=?1 AND coalesce(end_time, -1)=?2 AND status=?3 AND "
        "log_sha256=?4 UNION ALL SELECT 1 FROM run_history h JOIN runs r ON r.id=h.run_id WHERE "
        "r.key=?1 AND coalesce(h.end_time, -1)=?2 AND h.status=?3 AND h.log_sha256=?4 LIMIT 1");
    q->bind(1, r.key).bind(2, r.end_time.value_or(none)).bind(3, r.status).bind(4, r.log_sha256);
    if (q->step()) return false;
  }
  const auto id = impl_->id_of(r.key);
  double current_end = none;
  if (id) {
    auto q = db.prepare("SELECT coalesce(end_time, launch_time, -1) FROM runs WHERE id=?");
    q->bind(1, *id);
    if (q->step()) current_end = q->real(0);
  }
  const double end = r.end_time.value_or(r.launch_time.value_or(none));
  if (!id || end >= current_end) {
    const long long row = impl_->begin_locked(r);  // archives the row's attempt, if any
    impl_->write_outcome(row, r);
    db.prepare("UPDATE runs SET log_state=? WHERE id=?")
        ->bind(1, imported_state)
        .bind(2, row)
        .run();
  } else {
    db.prepare(
          "INSERT INTO run_history(run_id, session_id, attempt, status, reason, case_version, "
          "case_digest, launch_time, end_time, startup_s, wall_s, host, job_id, log_path, "
          "log_sha256, log_state, archived_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        ->bind(1, *id)
        .bind(2, r.session_id ? std::optional<long long>(r.session_id) : std::nullopt)
        .bind(3, r.attempt)
        .bind(4, r.status)
        .bind(5, r.reason)
        .bind(6, r.case_version)
        .bind(7, r.case_digest)
        .bind(8, r.launch_time)
        .bind(9, r.end_time)
        .bind(10, r.startup_s)
        .bind(11, r.wall_s)
        .bind(12, r.host)
        .bind(13, r.job_id)
        .bind(14, r.log_path)
        .bind(15, r.log_sha256)
        .bind(16, imported_state)
        .bind(17, now_epoch())
        .run();
    const long long hist = db.last_insert_rowid();
    for (const auto& m : r.metrics)
      db.prepare("INSERT INTO history_metrics(history_id, name, value, unit) VALUES(?,?,?,?)")
          ->bind(1, hist)
          .bind(2, m.name)
          .bind(3, m.value)
          .bind(4, m.unit)
          .run();
  }
  tx.commit();
  return true;
}

std::vector<Store::LogFile> Store::logs_ended_before(double t, const std::string& case_name) const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  std::vector<LogFile> out;
  auto q = impl_->db.prepare(
      "SELECT 0, id, key, case_name, log_path, log_state, coalesce(end_time, launch_time) FROM "
      "runs "
      "WHERE log_path<>'' AND log_state<>'pruned' AND coalesce(end_time, launch_time) < ?1 AND "
      "status NOT IN ('running', 'pending') AND (?2='' OR case_name=?2) "
      "UNION ALL SELECT 1, h.id, r.key, r.case_name, h.log_path, h.log_state, "
      "coalesce(h.end_time, h.launch_time) FROM run_history h JOIN runs r ON r.id=h.run_id "
      "WHERE h.log_path<>'' AND h.log_state<>'pruned' AND coalesce(h.end_time, h.launch_time) < ?1 "
      "AND (?2='' OR r.case_name=?2) ORDER BY 7");
  q->bind(1, t).bind(2, case_name);
  while (q->step())
    out.push_back({q->int64(0) != 0, q->int64(1), q->text(2), q->text(3), q->text(4), q->text(5),
                   q->real(6)});
  return out;
}

bool Store::log_in_use(const std::string& path) const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  auto q = impl_->db.prepare(
      "SELECT 1 FROM runs WHERE log_path=?1 UNION ALL SELECT 1 FROM run_history WHERE log_path=?1 "
      "LIMIT 1");
  q->bind(1, path);
  return q->step();
}

void Store::set_log(const LogFile& f, const std::string& path, const std::string& state) {
  Transaction tx(impl_->db, Transaction::Mode::Immediate);
  impl_->db
      .prepare(f.history ? "UPDATE run_history SET log_path=?, log_state=? WHERE id=?"
                         : "UPDATE runs SET log_path=?, log_state=? WHERE id=?")
      ->bind(1, path)
      .bind(2, state)
      .bind(3, f.id)
      .run();
  // The current row may share its log with an earlier attempt's row (an ingest's own file).
  impl_->db
      .prepare(f.history ? "UPDATE runs SET log_path=?1, log_state=?2 WHERE log_path=?3"
                         : "UPDATE run_history SET log_path=?1, log_state=?2 WHERE log_path=?3")
      ->bind(1, path)
      .bind(2, state)
      .bind(3, f.path)
      .run();
  tx.commit();
}

void Store::prefer_latest_ok(std::vector<RunRecord>& runs) const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  for (RunRecord& r : runs) prefer_latest_ok(r);
}

void Store::prefer_latest_ok(RunRecord& r) const {
  if (r.status == run_status::ok || r.status == run_status::running ||
      r.status == run_status::pending)
    return;
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Deferred);
  auto q = db.prepare(std::string("SELECT ") + kHistoryColumns +
                      " FROM run_history h WHERE h.run_id=? AND h.status='ok' AND "
                      "h.case_version=? ORDER BY h.id DESC LIMIT 1");
  q->bind(1, r.id).bind(2, r.case_version);
  if (!q->step()) return;
  const long long hist = q->int64(0);
  apply_history(r, *q);
  auto m = db.prepare("SELECT name, value, unit FROM history_metrics WHERE history_id=?");
  m->bind(1, hist);
  while (m->step()) r.metrics.push_back({m->text(0), m->real(1), m->text(2), 1, 0});
}

std::vector<std::string> Store::session_case_names(long long session) const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  // session_runs lists the session's current rows by id, then the runs whose attempt of the
  // session is in the history, by id: a case comes where its first run does.
  auto q = impl_->db.prepare(
      "SELECT case_name FROM (SELECT case_name, id AS place FROM runs WHERE session_id=?1 "
      "UNION ALL SELECT r.case_name, 4611686018427387904 + r.id FROM run_history h JOIN runs r "
      "ON r.id=h.run_id WHERE h.session_id=?1 AND (r.session_id IS NULL OR r.session_id<>?1)) "
      "GROUP BY case_name ORDER BY min(place)");
  q->bind(1, session);
  std::vector<std::string> names;
  while (q->step()) names.push_back(q->text(0));
  return names;
}

bool Store::session_has_runs(long long session, const std::string& case_name) const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  auto q = impl_->db.prepare(
      "SELECT EXISTS(SELECT 1 FROM runs WHERE session_id=?1 AND (?2='' OR case_name=?2)) OR "
      "EXISTS(SELECT 1 FROM run_history h JOIN runs r ON r.id=h.run_id WHERE h.session_id=?1 AND "
      "(?2='' OR r.case_name=?2))");
  q->bind(1, session).bind(2, case_name);
  return q->step() && q->int64(0) != 0;
}

std::vector<RunRecord> Store::all_attempts(const std::string& case_name) const {
  auto& db = impl_->db;
  std::vector<RunRecord> current = list(RunFilter::of_case(case_name));
  Transaction tx(db, Transaction::Mode::Deferred);
  std::map<long long, const RunRecord*> by_id;
  for (const auto& r : current) by_id[r.id] = &r;
  std::vector<RunRecord> out;
  {
    auto q = db.prepare(std::string("SELECT ") + kHistoryColumns +
                        " FROM run_history h JOIN runs r ON r.id=h.run_id WHERE r.case_name=? "
                        "ORDER BY h.id");
    q->bind(1, case_name);
    std::vector<std::pair<RunRecord, long long>> rows;
    while (q->step()) {
      const auto it = by_id.find(q->int64(1));
      if (it == by_id.end()) continue;
      RunRecord r = *it->second;
      apply_history(r, *q);
      rows.emplace_back(std::move(r), q->int64(0));
    }
    for (auto& [r, hist] : rows) {
      auto m = db.prepare("SELECT name, value, unit FROM history_metrics WHERE history_id=?");
      m->bind(1, hist);
      while (m->step()) r.metrics.push_back({m->text(0), m->real(1), m->text(2), 1, 0});
      out.push_back(std::move(r));
    }
  }
  out.insert(out.end(), std::make_move_iterator(current.begin()),
             std::make_move_iterator(current.end()));
  return out;
}

}  // namespace aerun
