// Store: a run's rows written, claimed, kept alive and finished; removed; orphans reaped.

#include <signal.h>
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

std::optional<long long> Store::Impl::id_of(const std::string& key) {
  auto q = db.prepare("SELECT id FROM runs WHERE key=?");
  q->bind(1, key);
  if (!q->step()) return std::nullopt;
  return q->int64(0);
}

long long Store::Impl::insert_run(const RunRecord& r, const std::string& status, int attempt) {
  static const auto begin = run_columns_of(kBegin);
  static const std::string sql = [] {
    std::string marks;
    for (size_t i = 0; i < begin.size(); ++i) marks += ",?";
    return fmt::format(
        "INSERT INTO runs(key, attempt, status, created_at, updated_at, heartbeat, {}) "
        "VALUES(?,?,?,?,?,?{})",
        name_list(begin), marks);
  }();
  const double now = now_epoch();
  auto q = db.prepare(sql);
  q->bind(1, r.key)
      .bind(2, attempt)
      .bind(3, status)
      .bind(4, now)
      .bind(5, now)
      .bind(6, status == run_status::running ? std::optional<double>(now) : std::nullopt);
  bind_columns(*q, 7, begin, r);
  q->run();
  const long long id = db.last_insert_rowid();
  write_job(id, r);
  return id;
}

// The batch-job columns and the run directory, from r.
void Store::Impl::write_job(long long id, const RunRecord& r, bool keep_empty) {
  static const auto job = run_columns_of(kJob);
  static const std::string keeping = "UPDATE runs SET " + set_list(job, 2, true) + " WHERE id=?1",
                           replacing = "UPDATE runs SET " + set_list(job, 2) + " WHERE id=?1";
  auto q = db.prepare(keep_empty ? keeping : replacing);
  q->bind(1, id);
  bind_columns(*q, 2, job, r);
  q->run();
}

void Store::Impl::write_params_and_env(long long id, const RunRecord& r) {
  db.prepare("DELETE FROM run_params WHERE run_id=?")->bind(1, id).run();
  db.prepare("DELETE FROM run_env WHERE run_id=?")->bind(1, id).run();
  int pos = 0;
  for (const auto& [name, value] : r.params) {
    auto q =
        db.prepare("INSERT INTO run_params(run_id, name, value, num, position) VALUES(?,?,?,?,?)");
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

void Store::Impl::clear_results(long long id) {
  db.prepare("DELETE FROM metrics WHERE run_id=?")->bind(1, id).run();
  db.prepare("DELETE FROM series WHERE run_id=?")->bind(1, id).run();
  db.prepare("DELETE FROM run_warnings WHERE run_id=?")->bind(1, id).run();
}

// Writes up to `limit` points of p's series from where it stands; true when all are written.
bool Store::Impl::write_series_part(PendingSeries& p, size_t limit) {
  auto q =
      db.prepare("INSERT INTO series(run_id, metric, idx, value, source_line) VALUES(?,?,?,?,?)");
  for (; p.metric < p.series->size(); ++p.metric, p.point = 0) {
    const MetricSeries& s = (*p.series)[p.metric];
    for (; p.point < s.points.size(); ++p.point) {
      if (limit-- == 0) return false;
      const SeriesPoint& pt = s.points[p.point];
      q->bind(1, p.id).bind(2, s.name).bind(3, pt.index).bind(4, pt.value).bind(5, pt.source_line);
      q->run();
      q->reset();
    }
  }
  return true;
}

// in_parts: a long series may be left to write_pending_series() (the caller calls it after
// committing its own, outermost, transaction).
void Store::Impl::write_results(long long id, const RunRecord& r, bool in_parts) {
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
bool Store::Impl::finish_locked(const RunRecord& r, bool in_parts) {
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
void Store::Impl::write_pending_series() {
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

std::optional<long long> Store::Impl::session_or_null(const RunRecord& r) {
  return r.session_id ? std::optional<long long>(r.session_id) : std::nullopt;
}

// Copies the finished attempt in row id into the history, with its metrics.
void Store::Impl::archive_attempt(long long id) {
  static const std::string sql = [] {
    const std::string cols = name_list(run_columns_of(kHistory));
    return fmt::format(
        "INSERT INTO run_history(run_id, {0}, archived_at) SELECT id, {0}, ? FROM runs WHERE "
        "id=? AND status NOT IN ('running', 'pending')",
        cols);
  }();
  db.prepare(sql)->bind(1, now_epoch()).bind(2, id).run();
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
void Store::Impl::write_outcome(long long id, const RunRecord& r, bool in_parts) {
  static const auto outcome = run_columns_of(kOutcome);
  static const std::string sql =
      fmt::format("UPDATE runs SET {}, updated_at=?2, child_pgid=NULL, heartbeat=NULL WHERE id=?1",
                  set_list(outcome, 3));
  auto q = db.prepare(sql);
  q->bind(1, id).bind(2, now_epoch());
  bind_columns(*q, 3, outcome, r);
  q->run();
  write_job(id, r);
  write_results(id, r, in_parts);
}

// begin_run inside the caller's write transaction.
long long Store::Impl::begin_locked(const RunRecord& r) {
  long long id = 0;
  if (auto existing = id_of(r.key)) {
    id = *existing;
    archive_attempt(id);
    // A new attempt: who runs what from r, the last attempt's outcome cleared (the fields of an
    // empty record, status running).
    static const auto begin = run_columns_of(kBegin);
    static const auto cleared = [] {
      std::vector<const RunColumn*> out;
      for (const RunColumn* c : run_columns_of(kOutcome))
        if (!(c->groups & kBegin)) out.push_back(c);
      return out;
    }();
    static const std::string sql = fmt::format(
        "UPDATE runs SET attempt=attempt+1, log_state='', updated_at=?2, heartbeat=?2, {}, {} "
        "WHERE id=?1",
        set_list(begin, 3), set_list(cleared, 3 + static_cast<int>(begin.size())));
    RunRecord fresh;
    fresh.status = run_status::running;
    auto q = db.prepare(sql);
    q->bind(1, id).bind(2, now_epoch());
    bind_columns(*q, bind_columns(*q, 3, begin, r), cleared, fresh);
    q->run();
    clear_results(id);
    write_job(id, r, /*keep_empty=*/false);  // a new attempt's run directory and nodes, or none
  } else {
    id = insert_run(r, run_status::running, 1);
  }
  write_params_and_env(id, r);
  return id;
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

}  // namespace aerun
