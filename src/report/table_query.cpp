#include "aerun/report/table_query.hpp"

#include <algorithm>
#include <exception>
#include <thread>

#include "aerun/report/case_versions.hpp"

namespace aerun {

// The one rule of which runs a table shows, as one reading thread applies it.
class TableQuery::Rule {
 public:
  Rule(const TableQuery& q) : q_(q) {
    if (q.spec_) versions_.add(*q.spec_);
    if (q.o_.make_selection) selection_ = q.o_.make_selection();
  }
  // Whether the table shows r (as it stands, when no session is read); counts earlier versions.
  bool shows(const Store& s, RunRecord& r, size_t& older) {
    if (q_.o_.session == 0) s.prefer_latest_ok(r);  // a run that failed lately: its success
    if (!q_.o_.all_versions && !versions_.holds(r)) {
      ++older;
      return false;
    }
    // The system a run ran on is a table's `system` (a row or pivot: docs/systems.md), unless
    // the case has a parameter of that name; `local` for none named.
    if (q_.system_dimension_ && !find_param(r.params, "system"))
      r.params.emplace_back("system", Value::of_string(r.system.empty() ? "local" : r.system));
    return !selection_ || selection_(r);
  }

 private:
  const TableQuery& q_;
  CurrentVersions versions_;  // each thread its own: it loads other cases' files as it meets them
  Selection selection_;
};

// What one thread read: how many runs, how many of earlier versions, what stopped it.
struct TableQuery::Part {
  long long read = 0;
  size_t older = 0;
  std::exception_ptr error;
};

TableQuery::TableQuery(const CaseSpec* spec, Options o) : spec_(spec), o_(std::move(o)) {
  // A table of the case has the system as a row or its pivot (docs/systems.md).
  if (spec_)
    for (const TableSpec& t : spec_->tables)
      system_dimension_ = system_dimension_ || t.pivot == "system" ||
                          std::find(t.rows.begin(), t.rows.end(), "system") != t.rows.end();
}

std::vector<RunRecord> TableQuery::runs(const Store& store) {
  Rule rule(*this);
  std::vector<RunRecord> out;
  for (const auto& name : o_.cases) {
    std::vector<RunRecord> runs;
    if (o_.session != 0) {
      runs = store.session_runs(o_.session, name);
    } else {
      RunFilter f;
      f.case_name = name;
      f.systems = o_.systems;
      runs = store.list(f);
    }
    if (o_.systems)
      std::erase_if(runs, [this](const RunRecord& r) {
        return std::find(o_.systems->begin(), o_.systems->end(), r.system) == o_.systems->end();
      });
    read_ += static_cast<long long>(runs.size());
    for (auto& r : runs)
      if (rule.shows(store, r, older_)) out.push_back(std::move(r));
  }
  return out;
}

RunFilter TableQuery::filter(const std::string& case_name) const {
  RunFilter f;
  f.case_name = case_name;
  f.with_env = false;
  f.with_series = false;          // a series' reduced value is stored as a metric too
  f.with_metric_details = false;  // a table shows their values
  f.columns = o_.columns;
  if (system_dimension_) f.columns->push_back("system");
  f.metric_names = o_.metrics;
  f.systems = o_.systems;
  return f;
}

void TableQuery::read_part(const Store& s, const RunFilter& f, TableBuilder& b, Part& part,
                           const std::function<void(long long)>* read) {
  Rule rule(*this);
  s.for_each(f, [&](RunRecord& r) {
    if (++part.read % 1024 == 0) {
      total_ += 1024;
      if (read) (*read)(read_ + total_);
    }
    if (rule.shows(s, r, part.older)) b.add(r);
    return true;
  });
}

void TableQuery::stream(const Store& store, TableBuilder& b,
                        const std::map<std::string, long long>& stored,
                        const std::function<std::unique_ptr<TableBuilder>()>& make,
                        const std::function<void(long long)>& read) {
  if (o_.session != 0) {  // one session's runs: few, read whole
    for (auto& r : runs(store)) b.add(r);
    return;
  }
  for (const auto& name : o_.cases) {
    const auto it = stored.find(name);
    stream_case(store, name, it == stored.end() ? 0 : it->second, b, make, read);
  }
}

void TableQuery::stream_case(const Store& store, const std::string& case_name, long long stored,
                             TableBuilder& b,
                             const std::function<std::unique_ptr<TableBuilder>()>& make,
                             const std::function<void(long long)>& read) {
  const RunFilter f = filter(case_name);
  Store::IdSpan span;
  long long parts = 1;
  if (o_.threads != 1) {
    const long long cpus = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 8);
    parts = o_.threads > 1 ? o_.threads : stored >= kThreadedFrom ? cpus : 1;
    parts = std::max(1LL, std::min(parts, stored));
    if (parts > 1) span = store.id_span(f, /*count=*/false);
  }
  std::vector<Part> state(static_cast<size_t>(parts));
  total_ = 0;
  if (parts == 1) {
    read_part(store, f, b, state[0], &read);
  } else {
    // Equal ranges of ids, the first read here, the others by threads of their own.
    const long long width = span.last - span.first + 1;
    auto cut = [&](long long p) { return span.first + width * p / parts; };
    std::vector<std::unique_ptr<TableBuilder>> builders;
    for (long long p = 1; p < parts; ++p) builders.push_back(make());
    std::vector<std::thread> threads;
    for (long long p = 1; p < parts; ++p) {
      RunFilter pf = f;
      pf.id_from = cut(p);
      pf.id_to = cut(p + 1) - 1;
      threads.emplace_back([this, pf, p, &builders, &state] {
        Part& mine = state[static_cast<size_t>(p)];
        try {
          const Store own(o_.db_path, Store::ReadOnly{});
          read_part(own, pf, *builders[static_cast<size_t>(p - 1)], mine, nullptr);
        } catch (...) {
          mine.error = std::current_exception();
        }
      });
    }
    RunFilter first = f;
    first.id_from = cut(0);
    first.id_to = cut(1) - 1;
    try {
      read_part(store, first, b, state[0], &read);
    } catch (...) {
      state[0].error = std::current_exception();
    }
    for (auto& t : threads) t.join();
    for (const Part& p : state)
      if (p.error) std::rethrow_exception(p.error);
    for (auto& other : builders) b.merge(std::move(*other));
  }
  for (const Part& p : state) {
    read_ += p.read;
    older_ += p.older;
  }
}

}  // namespace aerun
