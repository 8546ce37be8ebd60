// Store: sessions (one per aerun invocation that ran or collected runs) and environment records.

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

constexpr const char* kSessionColumns =
    "id, label, kind, fresh, started_at, ended_at, aerun_version, host, cluster, scheduler, "
    "user, git_commit, git_dirty, cases, env_record";

// A session's words are printed as they are (headings, table cells, messages): one that holds a
// control character (a store edited by hand, or merged from one: aerun's own labels cannot) is
// read with it escaped (\x0a), so that no label starts a line of its own in a report (issue 40's
// fourth pass: a label with a newline forged a row of regress's Markdown table).
SessionInfo read_session(const Statement& q) {
  SessionInfo s;
  s.id = q.int64(0);
  s.label = printable(q.text(1));
  s.kind = printable(q.text(2));
  s.fresh = q.int64(3) != 0;
  s.started_at = q.real(4);
  s.ended_at = q.opt_real(5);
  s.aerun_version = printable(q.text(6));
  s.host = printable(q.text(7));
  s.cluster = printable(q.text(8));
  s.scheduler = printable(q.text(9));
  s.user = printable(q.text(10));
  s.git_commit = printable(q.text(11));
  if (auto d = q.opt_int(12)) s.git_dirty = *d != 0;
  s.cases = q.text(13);  // lines "NAME DIGEST" (case names are plain file names)
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

}  // namespace aerun
