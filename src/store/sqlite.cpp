#include "store/sqlite.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include "aerun/util/error.hpp"

namespace aerun::sqlite {

namespace {
bool busy(sqlite3* db) {
  const int code = sqlite3_errcode(db) & 0xff;
  return code == SQLITE_BUSY || code == SQLITE_LOCKED;
}

[[noreturn]] void fail(sqlite3* db, std::string_view what) {
  const char* file = sqlite3_db_filename(db, "main");
  const std::string msg =
      fmt::format("store {}: {}: {}", file ? file : "", what, sqlite3_errmsg(db));
  if (busy(db)) throw StoreBusy(msg);
  throw SystemError(msg);
}
}  // namespace

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &s, nullptr) != SQLITE_OK)
    fail(db, fmt::format("cannot prepare \"{:.60}\"", sql));
  stmt_.reset(s);
}

Statement& Statement::bind(int i, std::nullptr_t) {
  if (sqlite3_bind_null(stmt_.get(), i) != SQLITE_OK) fail(db_, "bind");
  return *this;
}
Statement& Statement::bind(int i, long long v) {
  if (sqlite3_bind_int64(stmt_.get(), i, v) != SQLITE_OK) fail(db_, "bind");
  return *this;
}
Statement& Statement::bind(int i, double v) {
  if (sqlite3_bind_double(stmt_.get(), i, v) != SQLITE_OK) fail(db_, "bind");
  return *this;
}
Statement& Statement::bind(int i, std::string_view v) {
  if (sqlite3_bind_text64(stmt_.get(), i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8) !=
      SQLITE_OK)
    fail(db_, "bind");
  return *this;
}
Statement& Statement::bind(int i, const std::optional<double>& v) {
  return v ? bind(i, *v) : bind(i, nullptr);
}
Statement& Statement::bind(int i, const std::optional<int>& v) {
  return v ? bind(i, *v) : bind(i, nullptr);
}

Statement& Statement::bind(int i, const std::optional<long long>& v) {
  return v ? bind(i, *v) : bind(i, nullptr);
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, fmt::format("\"{:.60}\"", sqlite3_sql(stmt_.get())));
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_.get());
  sqlite3_clear_bindings(stmt_.get());
}

bool Statement::is_null(int col) const {
  return sqlite3_column_type(stmt_.get(), col) == SQLITE_NULL;
}
long long Statement::int64(int col) const {
  return sqlite3_column_int64(stmt_.get(), col);
}
double Statement::real(int col) const {
  return sqlite3_column_double(stmt_.get(), col);
}
std::string Statement::text(int col) const {
  const auto* p = sqlite3_column_text(stmt_.get(), col);
  const int n = sqlite3_column_bytes(stmt_.get(), col);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
}
std::optional<double> Statement::opt_real(int col) const {
  if (is_null(col)) return std::nullopt;
  return real(col);
}
std::optional<int> Statement::opt_int(int col) const {
  if (is_null(col)) return std::nullopt;
  return static_cast<int>(int64(col));
}

namespace {

// A file: URI for path, opened read-only; immutable when its folder cannot be written (read-only
// media: SQLite could not create the WAL index there).
std::string read_only_uri(const std::string& path) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (c == '%' || c == '?' || c == '#' || c < 0x20)
      uri += fmt::format("%{:02X}", c);
    else
      uri += static_cast<char>(c);
  }
  uri += "?mode=ro";
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  if (::access(dir.c_str(), W_OK) != 0) uri += "&immutable=1";
  return uri;
}

}  // namespace

Database::Database(const std::string& path, bool read_only) : path_(path) {
  // A device, a FIFO or a folder is never a store: SQLite would block on a FIFO, fail on
  // /dev/null with "disk I/O error" and leave a `-journal` file beside the device (issue 40).
  if (struct stat st{};
      path != ":memory:" && !path.empty() && ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(
        SourceLoc{}, "--db",
        "store " + path + " is not a regular file (a device, a FIFO or a folder is never a store)");
  sqlite3* db = nullptr;
  // NOMUTEX: a connection is used by one thread at a time (a Store is not thread-safe), so
  // SQLite's per-call mutex is pure cost (8 % of listing a large store).
  const int rc =
      read_only
          ? sqlite3_open_v2(read_only_uri(path).c_str(), &db,
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr)
          : sqlite3_open_v2(path.c_str(), &db,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                            nullptr);
  db_.reset(db);  // a failed open still returns a handle to close
  if (rc != SQLITE_OK)
    throw SystemError("cannot open store " + path + ": " +
                      (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_handler(db, &Database::on_busy, this);
}

// SQLite's own busy handler sleeps up to 100 ms between tries, so a writer that commits and
// begins again within that time (a long series written in parts) can keep a waiting one out for
// as long as it writes. This one tries every kBusyRetryMs, up to the connection's busy timeout.
int Database::on_busy(void* self, int count) {
  using clock = std::chrono::steady_clock;
  thread_local clock::time_point first;
  const auto now = clock::now();
  if (count == 0) first = now;
  const int limit_ms = static_cast<const Database*>(self)->busy_timeout_ms_;
  if (now - first >= std::chrono::milliseconds(limit_ms)) return 0;
  ::usleep(kBusyRetryMs * 1000);
  return 1;
}

void Database::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    const std::string what = fmt::format("store {}: \"{:.60}\": {}", path_, sql, msg);
    if (busy(db_.get())) throw StoreBusy(what);
    throw SystemError(what);
  }
}

StatementUse Database::prepare(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end())
    it = cache_.emplace(sql, std::make_unique<Statement>(db_.get(), sql)).first;
  return StatementUse(*it->second);
}

Transaction::Transaction(Database& db, Mode mode) : db_(db) {
  if (db.in_transaction()) return;
  db.exec(mode == Mode::Immediate ? "BEGIN IMMEDIATE" : "BEGIN");
  active_ = true;
}

Transaction::~Transaction() {
  if (!active_) return;
  try {
    db_.exec("ROLLBACK");
  } catch (...) {  // nothing more to do: the connection rolls back when it closes
  }
}

void Transaction::commit() {
  if (!active_) return;
  db_.exec("COMMIT");
  active_ = false;
}

}  // namespace aerun::sqlite
