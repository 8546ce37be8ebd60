// The columns of runs and how a row is read into a RunRecord, stale claims marked (see
// store_impl.hpp).

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

// clang-format off
#define AERUN_COLUMN(field, getter, need, groups)                                      \
  RunColumn{#field,                                                                    \
            [](RunRecord& r, const Statement& s, int c) {                              \
              r.field = static_cast<decltype(r.field)>(s.getter(c));                   \
            },                                                                         \
            RunColumn::need,                                                           \
            [](Statement& s, int i, const RunRecord& r) { s.bind(i, r.field); },       \
            groups}
// clang-format on

// Every column of runs: what read_run() reads when RunFilter::columns names none.
namespace {

const RunColumn kRunColumnTable[] = {
    AERUN_COLUMN(id, int64, Always, 0),
    AERUN_COLUMN(key, text, Named, 0),
    AERUN_COLUMN(case_name, text, Always, kBegin),
    AERUN_COLUMN(case_file, text, Always, kBegin),
    AERUN_COLUMN(repeat_index, int64, Always, kBegin),
    AERUN_COLUMN(attempt, int64, Always, kHistory),
    AERUN_COLUMN(status, text, Always, kOutcome | kHistory),
    AERUN_COLUMN(reason, text, Named, kOutcome | kHistory),
    AERUN_COLUMN(command, text, Named, kBegin),
    AERUN_COLUMN(workdir, text, Named, kBegin),
    AERUN_COLUMN(launch_time, opt_real, Named, kBegin | kOutcome | kHistory),
    AERUN_COLUMN(first_output_time, opt_real, Named, kOutcome),
    AERUN_COLUMN(startup_time, opt_real, Named, kOutcome),
    AERUN_COLUMN(end_time, opt_real, Named, kOutcome | kHistory),
    AERUN_COLUMN(startup_s, opt_real, Named, kOutcome | kHistory),
    AERUN_COLUMN(wall_s, opt_real, Named, kOutcome | kHistory),
    AERUN_COLUMN(exit_code, opt_int, Named, kOutcome),
    AERUN_COLUMN(signal, opt_int, Named, kOutcome),
    AERUN_COLUMN(user_cpu_s, real, Named, kOutcome),
    AERUN_COLUMN(sys_cpu_s, real, Named, kOutcome),
    AERUN_COLUMN(max_rss_kb, int64, Named, kOutcome),
    AERUN_COLUMN(host, text, Claim, kBegin | kHistory),
    AERUN_COLUMN(aerun_version, text, Named, kBegin),
    AERUN_COLUMN(git_commit, text, Named, kBegin),
    AERUN_COLUMN(runner_pid, int64, Claim, kBegin),
    AERUN_COLUMN(log_path, text, Named, kBegin | kOutcome | kHistory),
    AERUN_COLUMN(log_size, int64, Named, kOutcome),
    AERUN_COLUMN(log_sha256, text, Named, kOutcome | kHistory),
    AERUN_COLUMN(scheduler, text, Named, kJob),
    AERUN_COLUMN(job_id, text, Claim, kJob | kHistory),
    AERUN_COLUMN(array_index, opt_int, Named, kJob),
    AERUN_COLUMN(submit_time, opt_real, Named, kJob),
    AERUN_COLUMN(job_start_time, opt_real, Named, kJob),
    AERUN_COLUMN(queue_wait_s, opt_real, Named, kJob),
    AERUN_COLUMN(scheduler_state, text, Named, kJob),
    AERUN_COLUMN(scheduler_reason, text, Named, kJob),
    AERUN_COLUMN(runner_start, int64, Claim, kBegin),
    AERUN_COLUMN(runner_boot, text, Claim, kBegin),
    AERUN_COLUMN(heartbeat, opt_real, Claim, 0),
    AERUN_COLUMN(case_version, text, Always, kBegin | kHistory),
    AERUN_COLUMN(case_digest, text, Named, kBegin | kHistory),
    RunColumn{"session_id",
              [](RunRecord& r, const Statement& s, int c) { r.session_id = s.int64(c); },
              RunColumn::Always,
              // 0 (no session) is stored as NULL
              [](Statement& s, int i, const RunRecord& r) {
                s.bind(i, r.session_id ? std::optional<long long>(r.session_id) : std::nullopt);
              },
              kBegin | kHistory},
    AERUN_COLUMN(log_state, text, Named, kHistory),
    AERUN_COLUMN(rundir, text, Named, kJob | kKeepWhenEmpty),
    AERUN_COLUMN(nodes, text, Named, kJob | kKeepWhenEmpty),
    AERUN_COLUMN(container_image, text, Named, kBegin),
    AERUN_COLUMN(container_digest, text, Named, kBegin),
    AERUN_COLUMN(system, text, Named, kBegin | kHistory),
};
#undef AERUN_COLUMN

}  // namespace

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

RunColumns::RunColumns(const RunFilter& f) {
  if (f.columns)
    for (const auto& name : *f.columns)
      if (std::none_of(std::begin(kRunColumnTable), std::end(kRunColumnTable),
                       [&](const RunColumn& c) { return c.name == name; }))
        throw std::invalid_argument("RunFilter::columns: runs has no column '" + name + "'");
  for (const RunColumn& c : kRunColumnTable) {
    const bool named = !f.columns || c.need == RunColumn::Always ||
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
RunRecord read_run(const Statement& s, const RunColumns& columns, double now, Database* db) {
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

std::vector<const RunColumn*> run_columns_of(unsigned groups) {
  std::vector<const RunColumn*> out;
  for (const RunColumn& c : kRunColumnTable)
    if (c.groups & groups) out.push_back(&c);
  return out;
}

std::string set_list(const std::vector<const RunColumn*>& cols, int first, bool keep_empty) {
  std::string out;
  int i = first;
  for (const RunColumn* c : cols) {
    if (!out.empty()) out += ", ";
    if (keep_empty && (c->groups & kKeepWhenEmpty))
      out += fmt::format("{0}=CASE WHEN ?{1}='' THEN {0} ELSE ?{1} END", c->name, i++);
    else
      out += fmt::format("{}=?{}", c->name, i++);
  }
  return out;
}

std::string name_list(const std::vector<const RunColumn*>& cols) {
  std::string out;
  for (const RunColumn* c : cols) out += (out.empty() ? "" : ", ") + std::string(c->name);
  return out;
}

int bind_columns(Statement& s, int first, const std::vector<const RunColumn*>& cols,
                 const RunRecord& r) {
  for (const RunColumn* c : cols) c->bind(s, first++, r);
  return first;
}

}  // namespace store_internal

}  // namespace aerun
