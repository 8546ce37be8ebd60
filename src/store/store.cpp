// The results store: opening a store (WAL or a rollback journal, its host, its schema), its
// migrations. The rest of Store is in the files store_impl.hpp names.

#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "aerun/judge/run_status.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/process_identity.hpp"
#include "aerun/util/sha256.hpp"
#include "aerun/util/shell_quote.hpp"
#include "store/migrations.hpp"
#include "store/sqlite.hpp"
#include "store/store_impl.hpp"

namespace aerun {

using namespace store_internal;

namespace store_internal {

double now_epoch() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
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

}  // namespace store_internal

bool Store::Impl::exists_quietly(const std::string& p) {
  std::error_code ec;
  return std::filesystem::exists(p, ec);
}

Store::Impl::Impl(const std::string& path, const StoreFilesystem& fs)
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
const std::string& Store::Impl::with_working_locks(const std::string& path,
                                                   const StoreFilesystem& fs) {
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
void Store::Impl::use_rollback_journal(const std::string& path, const StoreFilesystem& fs) {
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
void Store::Impl::refuse_other_hosts_wal(const std::string& path) {
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

void Store::Impl::note_wal_host() {
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
void Store::Impl::use_wal() {
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
void Store::Impl::refuse_foreign_schema(const std::string& path) {
  db.exec("PRAGMA trusted_schema=OFF");
  auto q = db.prepare(
      "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY name");
  std::string found;
  while (q->step())
    found += fmt::format("{}{} '{}'", found.empty() ? "" : ", ", q->text(0), printable(q->text(1)));
  if (!found.empty())
    throw SystemError(fmt::format(
        "store {} holds {} that aerun did not create: aerun runs no SQL a store brings. Drop "
        "it (sqlite3 {} 'DROP TRIGGER name' / 'DROP VIEW name') or use a copy without it",
        printable(path), found, shell_quote(path)));
  // Another program's database (tables, none of them aerun's): never given aerun's tables nor
  // switched to WAL, even by a `runs` that only reads (issue 40's third pass).
  auto t = db.prepare(
      "SELECT count(*), sum(name = 'schema_migrations') FROM sqlite_master WHERE type = 'table'");
  if (t->step() && t->int64(0) > 0 && t->int64(1) == 0)
    throw InputError(SourceLoc{}, "--db",
                     fmt::format("{} is an SQLite database of another program (its tables are not "
                                 "aerun's): not touched; give aerun a store of its own",
                                 printable(path)));
}

Store::Impl::Impl(const std::string& path, ReadOnly) : db(path, /*read_only=*/true) {
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
void Store::Impl::migrate() {
  check_not_newer(user_version(db));
  for (const auto& m : store_migrations()) {
    if (user_version(db) >= m.version) continue;
    Transaction tx(db, Transaction::Mode::Immediate);
    const int v = user_version(db);
    check_not_newer(v);
    if (v >= m.version) continue;
    db.exec(std::string(m.sql));
    if (m.code) m.code(db);
    db.prepare("INSERT INTO schema_migrations(version, description, applied_at) VALUES(?,?,?)")
        ->bind(1, m.version)
        .bind(2, m.description)
        .bind(3, now_epoch())
        .run();
    db.exec(fmt::format("PRAGMA user_version={}", m.version));
    tx.commit();
  }
}

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

namespace {
Store::SystemOfHost& system_of_host_fn() {
  static Store::SystemOfHost fn;
  return fn;
}
}  // namespace

void Store::set_system_of_host(SystemOfHost fn) {
  system_of_host_fn() = std::move(fn);
}

const Store::SystemOfHost& Store::system_of_host() {
  return system_of_host_fn();
}

int Store::schema_version() const {
  return user_version(impl_->db);
}

}  // namespace aerun
