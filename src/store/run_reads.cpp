// Store: runs read back, one by key or reference, listings, outlines and streams of them.

#include <unordered_set>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
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

void Store::Impl::load_children(RunRecord& r) {
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

std::optional<RunRecord> Store::Impl::load_where(const std::string& where, const std::string& arg) {
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
    if (f.systems) sql += " AND r.system IN (SELECT value FROM json_each(?7))";
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
    if (f.systems) {
      std::string json = "[";
      for (const auto& s : *f.systems) json += (json.size() > 1 ? "," : "") + json_quote(s);
      q.bind(7, json + "]");
    }
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

namespace {

// The distinct values of a column in case c's runs, up to `most`, each the least after the one
// before: a seek each in an index (runs_case_file, runs_case_system), where a DISTINCT scan reads
// every run.
std::vector<std::string> distinct_values(sqlite::Database& db, const RunWhere& rw,
                                         const std::string& c, const std::string& column,
                                         size_t most) {
  std::vector<std::string> values;
  for (std::string after; values.size() < most;) {
    auto q = db.prepare("SELECT r." + column + " FROM runs r WHERE " + rw.sql + " AND r." + column +
                        " > ?10 ORDER BY r." + column + " LIMIT 1");
    rw.bind(*q, c);
    q->bind(10, after);
    if (!q->step()) break;
    after = q->text(0);
    values.push_back(after);
  }
  return values;
}

// The names of one kind of child (parameters, metrics) in case c's runs, in order of first
// appearance (runs by id, then `order`). Usually every run has the names of the first run that
// has any: those are taken, and one query inside SQLite checks that no run has another (far
// cheaper than stepping every child row out of it); only when one does are all rows read in
// order.
std::vector<std::string> child_names(sqlite::Database& db, const RunWhere& rw, const std::string& c,
                                     const std::string& table, const std::string& order) {
  const std::string& where = rw.sql;
  std::vector<std::string> names;
  {
    auto q =
        db.prepare("SELECT c.name FROM " + table + " c WHERE c.run_id=(SELECT c2.run_id FROM " +
                   table + " c2 JOIN runs r ON r.id=c2.run_id WHERE " + where +
                   " ORDER BY r.id LIMIT 1) ORDER BY " + order);
    rw.bind(*q, c);
    while (q->step()) names.push_back(q->text(0));
  }
  if (names.empty()) return names;  // no run has any
  std::string json = "[";
  for (const auto& n : names) json += (json.size() > 1 ? "," : "") + json_quote(n);
  json += "]";
  try {
    auto q = db.prepare("SELECT 1 FROM " + table + " c JOIN runs r ON r.id=c.run_id WHERE " +
                        where + " AND c.name NOT IN (SELECT value FROM json_each(?6)) LIMIT 1");
    rw.bind(*q, c);
    q->bind(6, json);
    if (!q->step()) return names;
  } catch (const SystemError&) {
    // A name JSON cannot carry (invalid UTF-8): read every row instead.
  }
  names.clear();
  std::unordered_set<std::string> seen;
  auto q = db.prepare("SELECT c.name FROM " + table + " c JOIN runs r ON r.id=c.run_id WHERE " +
                      where + " ORDER BY r.id, " + order);
  rw.bind(*q, c);
  while (q->step()) {
    std::string n = q->text(0);
    if (seen.insert(n).second) names.push_back(std::move(n));
  }
  return names;
}

}  // namespace

Store::Outline Store::outline(const RunFilter& f, bool with_names) const {
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Deferred);
  const RunWhere rw(f);
  Outline out;
  std::unordered_set<std::string> seen_params, seen_metrics;
  for (const auto& c : rw.cases(db)) {
    {
      auto q = db.prepare("SELECT count(*) FROM runs r WHERE " + rw.sql);
      rw.bind(*q, c);
      if (q->step()) out.runs += q->int64(0);
    }
    if (auto files = distinct_values(db, rw, c, "case_file", 3); !files.empty())
      out.case_files[c] = std::move(files);
    for (const std::string& system : distinct_values(db, rw, c, "system", SIZE_MAX))
      if (std::find(out.systems.begin(), out.systems.end(), system) == out.systems.end())
        out.systems.insert(std::lower_bound(out.systems.begin(), out.systems.end(), system),
                           system);  // the named ones ('' is least)
    if (!with_names) continue;
    for (auto& n : child_names(db, rw, c, "run_params", "c.position"))
      if (seen_params.insert(n).second) out.params.push_back(std::move(n));
    out.case_metrics[c] = child_names(db, rw, c, "metrics", "c.position");
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

namespace {

// Rows of one run taken in any order and kept in the order of their position: `order` holds the
// positions of list's elements so far.
template <class List>
void keep_in_order(std::vector<long long>& order, List& list, long long position) {
  size_t at = order.size();
  while (at > 0 && order[at - 1] > position) --at;
  order.insert(order.begin() + static_cast<long>(at), position);
  std::rotate(list.begin() + static_cast<long>(at), list.end() - 1, list.end());
}

// The selected runs of one case, each with its parameters, environment, metrics and series: the
// runs' rows and each child table's read side by side, all in run id order.
class CaseRows {
 public:
  CaseRows(Database& db, const RunWhere& rw, const std::string& case_name, const RunFilter& f,
           const RunColumns& columns, const Store::IdSpan& span)
      : db_(db), f_(f), columns_(columns) {
    // A child table (parameters, environment, metrics; clustered by run id) is read in one
    // sequential pass over the range of the selected ids when they are at least half of the
    // range (the rows of other runs are skipped below), else joined to the selected runs (an
    // index lookup per run). Either way its rows come in run id order.
    const bool dense = span.runs * 2 >= span.last - span.first + 1;
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
                      rw.sql + only + " ORDER BY r.id");
      if (dense)
        q->bind(1, span.first).bind(2, span.last);
      else
        rw.bind(*q, case_name);
      for (size_t i = 0; names && i < names->size(); ++i)
        q->bind(static_cast<int>(10 + i), (*names)[i]);
      return q;
    };
    // The runs' own rows: from the index runs_case_summary when it holds every column read, else
    // in one pass over the id range (dense), else through the index.
    const bool scan = dense && !columns.summary;
    runs_.emplace(
        db.prepare("SELECT " + columns.sql + " FROM runs r" +
                   (scan ? " NOT INDEXED WHERE r.id BETWEEN ?20 AND ?21 AND " : " WHERE ") +
                   rw.sql + " ORDER BY r.id"));
    rw.bind(**runs_, case_name);
    if (scan) (*runs_)->bind(20, span.first).bind(21, span.last);
    // Parameters, environment and metrics come in their key's order (by name) and are put in
    // their own order here: sorting a run's few rows costs less than SQLite's sorter for each run.
    params_.emplace(children("c.run_id, c.name, c.value, c.position", "run_params"));
    metrics_.emplace(children(f.with_metric_details
                                  ? "c.run_id, c.name, c.value, c.position, c.unit, c.count, "
                                    "c.source_line"
                                  : "c.run_id, c.name, c.value, c.position",
                              "metrics", f.metric_names ? &*f.metric_names : nullptr));
    if (f.with_env) env_.emplace(children("c.run_id, c.name, c.value, c.position", "run_env"));
    if (f.with_series) {
      series_.emplace(db.prepare(
          "SELECT c.run_id, c.metric, c.idx, c.value, c.source_line FROM series c JOIN runs r ON "
          "r.id=c.run_id WHERE " +
          rw.sql + " ORDER BY r.id, c.rowid"));
      rw.bind(**series_, case_name);
    }
    cp_.q = &**params_;
    ce_.q = env_ ? &**env_ : nullptr;
    cm_.q = &**metrics_;
    cs_.q = series_ ? &**series_ : nullptr;
    for (Cursor* c : {&cp_, &ce_, &cm_, &cs_}) c->next();
  }

  // The next run, its stale claim marked as of `now`; false after the last.
  bool next(RunRecord& r, double now) {
    if (!(*runs_)->step()) return false;
    r = read_run(**runs_, columns_, now, &db_);
    r.params.reserve(params_seen_);
    r.metrics.reserve(metrics_seen_);
    order_.clear();
    rows_of(cp_, r.id, [&](Statement& q) {
      r.params.emplace_back(q.text(1), Value::parse(q.text(2)));
      keep_in_order(order_, r.params, q.int64(3));
    });
    order_.clear();
    rows_of(ce_, r.id, [&](Statement& q) {
      r.env.emplace_back(q.text(1), Value::parse(q.text(2)));
      keep_in_order(order_, r.env, q.int64(3));
    });
    order_.clear();
    rows_of(cm_, r.id, [&](Statement& q) {
      if (f_.with_metric_details)
        r.metrics.push_back({q.text(1), q.real(2), q.text(4), q.int64(5), q.int64(6)});
      else
        r.metrics.push_back({q.text(1), q.real(2), {}, 0, 0});
      keep_in_order(order_, r.metrics, q.int64(3));
    });
    rows_of(cs_, r.id, [&](Statement& q) {
      std::string name = q.text(1);
      auto it = std::find_if(r.series.begin(), r.series.end(),
                             [&](const auto& s) { return s.name == name; });
      if (it == r.series.end()) {
        r.series.push_back({std::move(name), {}});
        it = r.series.end() - 1;
      }
      it->points.push_back({q.int64(2), q.real(3), q.int64(4)});
    });
    params_seen_ = r.params.size();
    metrics_seen_ = r.metrics.size();
    return true;
  }

 private:
  // A child table's cursor: whether it holds an unread row (its run id in column 0).
  struct Cursor {
    Statement* q = nullptr;
    bool has = false;
    void next() { has = q && q->step(); }
  };
  template <class Take>
  static void rows_of(Cursor& c, long long id, Take&& take) {
    while (c.has && c.q->int64(0) < id) c.next();
    for (; c.has && c.q->int64(0) == id; c.next()) take(*c.q);
  }

  Database& db_;
  const RunFilter& f_;
  const RunColumns& columns_;
  std::optional<sqlite::StatementUse> runs_, params_, metrics_, env_, series_;
  Cursor cp_, ce_, cm_, cs_;
  std::vector<long long> order_;
  size_t params_seen_ = 0, metrics_seen_ = 0;  // the last run's: room made for as many
};

}  // namespace

void Store::for_each(const RunFilter& f, const std::function<bool(RunRecord&)>& fn) const {
  auto& db = impl_->db;
  Transaction tx(db, Transaction::Mode::Deferred);
  const RunWhere rw(f);
  const RunColumns columns(f);
  const double now = now_epoch();
  for (const auto& case_name : rw.cases(db)) {
    const IdSpan span = id_span_of(db, rw, case_name);
    if (span.runs == 0) continue;
    CaseRows rows(db, rw, case_name, f, columns, span);
    for (RunRecord r; rows.next(r, now);)
      if (!fn(r)) return;
  }
}

std::vector<std::string> Store::case_names() const {
  Transaction tx(impl_->db, Transaction::Mode::Deferred);
  std::vector<std::string> names;
  auto q = impl_->db.prepare("SELECT DISTINCT case_name FROM runs ORDER BY case_name");
  while (q->step()) names.push_back(q->text(0));
  return names;
}

}  // namespace aerun
