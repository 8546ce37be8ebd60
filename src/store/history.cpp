// Store: the earlier attempts of runs (history), and attempts imported from other stores (merge).

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

namespace {

// An earlier attempt (a run_history row, with run_history's columns in this order) over the
// current row `r` of its run: what differs between attempts is replaced, series dropped.
// The columns run_history keeps of an attempt (the same names as in runs).
const std::vector<const RunColumn*>& history_run_columns() {
  static const auto cols = run_columns_of(kHistory);
  return cols;
}

// "h.id, h.run_id, h.<each history column>", and a row of it onto the run it is an attempt of
// (the fields run_history does not keep cleared).
const std::string& history_columns() {
  static const std::string sql = [] {
    std::string out = "h.id, h.run_id";
    for (const RunColumn* c : history_run_columns()) out += ", h." + std::string(c->name);
    return out;
  }();
  return sql;
}

void apply_history(RunRecord& r, const Statement& q) {
  int i = 2;
  for (const RunColumn* c : history_run_columns()) c->read(r, q, i++);
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
      auto q = db.prepare("SELECT " + history_columns() + " FROM run_history h WHERE h.id=?");
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
    const auto& hist_cols = history_run_columns();
    static const std::string sql = [&hist_cols] {
      std::string marks;
      for (size_t i = 0; i < hist_cols.size(); ++i) marks += ",?";
      return fmt::format("INSERT INTO run_history(run_id, {}, archived_at) VALUES(?{},?)",
                         name_list(hist_cols), marks);
    }();
    RunRecord kept = r;
    kept.log_state = imported_state;
    auto q = db.prepare(sql);
    q->bind(1, *id);
    q->bind(bind_columns(*q, 2, hist_cols, kept), now_epoch());
    q->run();
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
  auto q = db.prepare("SELECT " + history_columns() +
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

std::vector<RunRecord> Store::all_attempts(const std::string& case_name) const {
  auto& db = impl_->db;
  std::vector<RunRecord> current = list(RunFilter::of_case(case_name));
  Transaction tx(db, Transaction::Mode::Deferred);
  std::map<long long, const RunRecord*> by_id;
  for (const auto& r : current) by_id[r.id] = &r;
  std::vector<RunRecord> out;
  {
    auto q = db.prepare("SELECT " + history_columns() +
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
