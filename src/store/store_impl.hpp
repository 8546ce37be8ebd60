// Inside the results store: the state every part of Store shares (its connection, the
// writes of a run's rows) and the table of the columns of runs. Store's methods are
// defined by concern: store.cpp (opening, migrating), run_columns.cpp, run_writes.cpp
// (claims and results), run_reads.cpp, sessions.cpp (sessions, environment records),
// history.cpp (earlier attempts, merge), log_files.cpp (prune).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aerun/record/run_record.hpp"
#include "aerun/store/store.hpp"
#include "store/sqlite.hpp"
#include "store/store_filesystem.hpp"

namespace aerun {

namespace store_internal {

double now_epoch();

// How one column of runs is read into the RunRecord field of the same name (streaming listings
// and tables read a subset: RunFilter::columns).
// Which writes of a run set a column from its RunRecord field (each column is named once, in
// run_columns.cpp; the writes are generated from that table).
enum RunColumnGroup : unsigned {
  kBegin = 1,          // a new attempt (begin_run, an import): who runs what, where, since when
  kOutcome = 2,        // a finished attempt: status, times, exit, resources, log
  kJob = 4,            // the batch job's fields
  kKeepWhenEmpty = 8,  // an update leaves the stored value when the record's is "" (write_job)
  kHistory = 16,       // kept of each earlier attempt in run_history (same names there)
};

struct RunColumn {
  enum Need {
    Named,   // read when RunFilter::columns names it (or names none)
    Always,  // identity, status, version: read whatever RunFilter::columns says
    Claim,   // the claim that tells a stale run: always read for a running run, else as Named
  };
  std::string_view name;
  void (*read)(RunRecord&, const sqlite::Statement&, int);
  Need need = Named;
  void (*bind)(sqlite::Statement&, int, const RunRecord&) = nullptr;
  unsigned groups = 0;  // RunColumnGroup bits
};

// The columns of runs in any of `groups`, in the table's order.
std::vector<const RunColumn*> run_columns_of(unsigned groups);
// "a=?3, b=?4, …" numbered from `first`; with keep_empty, a kKeepWhenEmpty column keeps its
// stored value when the bound one is "".
std::string set_list(const std::vector<const RunColumn*>& cols, int first, bool keep_empty = false);
// "a, b, …".
std::string name_list(const std::vector<const RunColumn*>& cols);
// Binds each column's field of r from position `first`; returns the next position.
int bind_columns(sqlite::Statement& s, int first, const std::vector<const RunColumn*>& cols,
                 const RunRecord& r);

// Every column of runs, in the order read_run() reads them: "id, key, …".
const std::string& all_run_columns();

// The columns of runs a filter reads, and the SQL that selects them from `runs r`: every column,
// or those always read and those it names; the claim of a running run (which tells a stale one)
// is then read by a query of its own, for the few runs that are running. Throws
// std::invalid_argument for a name that is no column of runs.
struct RunColumns {
  std::vector<const RunColumn*> read, claim;
  std::string sql, claim_sql;
  bool summary = true;  // every column read is in the index runs_case_summary

  explicit RunColumns(const RunFilter& f);
};

// A run left "running" by an aerun process that is provably gone, or silent for longer than
// kStaleAfterS, is shown (and may be taken over) as "stale" (run_columns.cpp says when).
bool claim_is_stale(const RunRecord& r, double now);
void mark_if_stale(RunRecord& r, double now);

// A row of runs selected by columns.sql (with its claim from db when it is running and the
// claim was not selected), stale claims marked as of `now`.
RunRecord read_run(const sqlite::Statement& s, const RunColumns& columns, double now,
                   sqlite::Database* db = nullptr);
// A row of every column of runs (all_run_columns()).
RunRecord read_run(const sqlite::Statement& s);

bool all_digits(const std::string& s);
int user_version(sqlite::Database& db);
// Throws when the store's schema is newer than this aerun knows.
void check_not_newer(int found);

}  // namespace store_internal

using sqlite::Database;
using sqlite::Statement;
using sqlite::Transaction;

struct Store::Impl {
  // Whether the store's WAL index (-shm) was there before this process opened it: another
  // connection has the store open (this one's own open makes the file).
  bool shm_before_open = false;
  Database db;

  static bool exists_quietly(const std::string& p);

  // Whether this host has seen prev's heartbeat stand still for kStaleAfterS of its own clock
  // (claim_watch); records what it sees now otherwise.
  bool silent_long_enough(const RunRecord& prev);

  explicit Impl(const std::string& path) : Impl(path, store_filesystem(path)) {}

  Impl(const std::string& path, const StoreFilesystem& fs);

  // On a network file system SQLite's rollback journal needs POSIX locks that work; without them
  // two writers would corrupt the store: refused before SQLite opens (or creates) it.
  static const std::string& with_working_locks(const std::string& path, const StoreFilesystem& fs);

  // WAL needs every reader and writer on one host (its index is shared memory): on a file system
  // several hosts share (Lustre, GPFS, NFS, CephFS, ...) the store keeps a rollback journal,
  // which works with the file system's locks (sqlite.org/wal.html, "WAL does not work over a
  // network filesystem"). A store switched to WAL elsewhere is switched back (SQLite does it
  // once no other connection has it open).
  void use_rollback_journal(const std::string& path, const StoreFilesystem& fs);

  // A store in WAL mode written from a second host while the first has it open (its -shm file
  // there) means the file system is shared but was not recognised: refused, as WAL would corrupt
  // it. A store copied to another machine (no -shm: closed cleanly) is simply this host's now.
  void refuse_other_hosts_wal(const std::string& path);

  void note_wal_host();

  // Switching a new store to WAL needs it alone for a moment, and SQLite answers "database is
  // locked" at once, without its busy handler, to a connection that loses that race (several
  // aerun processes started together on a store that does not exist yet): try again, for as
  // long as the busy timeout waits for other locks.
  void use_wal();

  // aerun creates no trigger and no view: one in a store came from elsewhere (a merged or copied
  // store) and would run its SQL inside aerun's writes, or hang every reader (a recursive view).
  // Refused before anything else is read or written (issue 28); functions with side effects are
  // refused in what the schema holds too (trusted_schema=OFF).
  void refuse_foreign_schema(const std::string& path);

  Impl(const std::string& path, ReadOnly);

  // Applies missing migrations, each in its own transaction; a second process racing to migrate
  // re-reads the version once it holds the write lock and skips what is done.
  void migrate();

  std::optional<long long> id_of(const std::string& key);

  long long insert_run(const RunRecord& r, const std::string& status, int attempt);

  // The batch-job columns and the run directory, from r.
  void write_job(long long id, const RunRecord& r, bool keep_empty = true);

  void write_params_and_env(long long id, const RunRecord& r);

  void clear_results(long long id);

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
  bool write_series_part(PendingSeries& p, size_t limit);

  // in_parts: a long series may be left to write_pending_series() (the caller calls it after
  // committing its own, outermost, transaction).
  void write_results(long long id, const RunRecord& r, bool in_parts = false);

  // finish_run inside the caller's write transaction; false when another aerun took the run over.
  bool finish_locked(const RunRecord& r, bool in_parts);

  // The parts of a long series left by write_results, one transaction each, after the caller's
  // transaction committed. Stops when the run was run again or forgotten meanwhile (its marker
  // gone); the last part removes the marker.
  void write_pending_series();

  void load_children(RunRecord& r);

  static std::optional<long long> session_or_null(const RunRecord& r);

  // Copies the finished attempt in row id into the history, with its metrics.
  void archive_attempt(long long id);

  // A finished attempt's outcome into row id: status, reason, times, exit, rusage, log, the
  // batch-job fields, metrics and series.
  void write_outcome(long long id, const RunRecord& r, bool in_parts = false);

  // begin_run inside the caller's write transaction.
  long long begin_locked(const RunRecord& r);

  std::optional<RunRecord> load_where(const std::string& where, const std::string& arg);
};

}  // namespace aerun
