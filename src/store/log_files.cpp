// Store: the log files of runs, for prune (which ended when, which are in use, where they went).

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

}  // namespace aerun
