// Thin RAII wrappers over the SQLite3 C API: a connection, its cached statements, transactions.
#pragma once

#include <sqlite3.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace aerun::sqlite {

// One prepared statement (finalized on destruction) with typed binding and reading.
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based, columns 0-based, as in SQLite.
  Statement& bind(int i, std::nullptr_t);
  Statement& bind(int i, long long v);
  Statement& bind(int i, int v) { return bind(i, static_cast<long long>(v)); }
  Statement& bind(int i, double v);
  Statement& bind(int i, std::string_view v);
  Statement& bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
  Statement& bind(int i, const char* v) { return bind(i, std::string_view(v)); }
  Statement& bind(int i, const std::optional<double>& v);
  Statement& bind(int i, const std::optional<int>& v);
  Statement& bind(int i, const std::optional<long long>& v);

  // Runs one step: true when a row is ready, false when done; throws SystemError on errors.
  bool step();
  // Steps to completion (for statements that return no rows).
  void run();
  void reset();

  bool is_null(int col) const;
  long long int64(int col) const;
  double real(int col) const;
  std::string text(int col) const;
  std::optional<double> opt_real(int col) const;
  std::optional<int> opt_int(int col) const;

 private:
  struct Finalizer {
    void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
  };
  sqlite3* db_;
  std::unique_ptr<sqlite3_stmt, Finalizer> stmt_;
};

class Database;

// A cached statement in use: reset (and its bindings cleared) when the use ends, so a statement
// that was not stepped to completion never keeps a read snapshot open.
class StatementUse {
 public:
  explicit StatementUse(Statement& s) : s_(&s) {}
  ~StatementUse() {
    if (s_) s_->reset();
  }
  StatementUse(StatementUse&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  StatementUse(const StatementUse&) = delete;
  StatementUse& operator=(const StatementUse&) = delete;
  StatementUse& operator=(StatementUse&&) = delete;
  Statement* operator->() const { return s_; }
  Statement& operator*() const { return *s_; }

 private:
  Statement* s_;
};

// An open connection (closed on destruction) with a cache of prepared statements.
class Database {
 public:
  // How long a statement waits for another connection's lock before "database is locked".
  static constexpr int kBusyTimeoutMs = 10000;
  static constexpr int kBusyRetryMs = 2;  // how often a busy store is tried again
  // How long this connection waits for a lock before "database is locked" (StoreBusy).
  void set_busy_timeout_ms(int ms) { busy_timeout_ms_ = ms; }
  explicit Database(const std::string& path, bool read_only = false);
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements without results.
  void exec(const std::string& sql);
  // The cached prepared statement for sql, ready to bind.
  StatementUse prepare(const std::string& sql);
  long long last_insert_rowid() const { return sqlite3_last_insert_rowid(db_.get()); }
  int changes() const { return sqlite3_changes(db_.get()); }
  bool in_transaction() const { return sqlite3_get_autocommit(db_.get()) == 0; }
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_.get(); }

 private:
  static int on_busy(void*, int count);
  struct Closer {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
  };
  std::string path_;
  int busy_timeout_ms_ = kBusyTimeoutMs;
  std::unique_ptr<sqlite3, Closer> db_;
  std::map<std::string, std::unique_ptr<Statement>, std::less<>> cache_;
};

// A transaction that rolls back unless committed. Nested inside an open transaction it does
// nothing (the outer one decides). Writes use Immediate so the write lock is taken up front.
class Transaction {
 public:
  enum class Mode { Deferred, Immediate };
  Transaction(Database& db, Mode mode);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();
  // Whether this is the outermost transaction (the one that commits).
  bool outermost() const { return active_; }

 private:
  Database& db_;
  bool active_ = false;
};

}  // namespace aerun::sqlite
