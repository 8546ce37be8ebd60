#include "cli/table_stream.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <thread>

#include "aerun/run/case_versions.hpp"
#include "aerun/run/run_plan.hpp"

namespace aerun::cli {

// What one thread read: how many runs, how many of earlier versions, what stopped it.
struct TableStream::Part {
  long long read = 0;
  size_t older = 0;
  std::exception_ptr error;
};

TableStream::TableStream(const CaseSpec& spec, Options o,
                         std::function<std::unique_ptr<TableBuilder>()> make)
    : spec_(spec), o_(std::move(o)), make_(std::move(make)) {}

void TableStream::read_part(const Store& s, const RunFilter& f, TableBuilder& b, Part& part,
                            const std::function<void(long long)>* read) {
  CurrentVersions versions;  // each thread its own: it loads other cases' files as it meets them
  versions.add(spec_);
  std::optional<RunSelector> selector;
  if (!o_.select.empty()) selector.emplace(o_.select.only, o_.known, o_.select.where);
  s.for_each(f, [&](RunRecord& r) {
    if (++part.read % 1024 == 0) {
      total_ += 1024;
      if (read) (*read)(read_ + total_);
    }
    s.prefer_latest_ok(r);  // a run that failed lately shows its latest success
    if (!o_.all_versions && !versions.holds(r)) {
      ++part.older;
      return true;
    }
    if (selector && !selector->keeps(r.params, r.repeat_index)) return true;
    b.add(r);
    return true;
  });
}

void TableStream::read_case(const Store& store, const std::string& case_name, long long stored,
                            TableBuilder& b, const std::function<void(long long)>& read) {
  RunFilter f;
  f.case_name = case_name;
  f.with_env = false;
  f.with_series = false;          // a series' reduced value is stored as a metric too
  f.with_metric_details = false;  // a table shows their values
  f.columns = o_.columns;
  f.metric_names = o_.metrics;
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
    for (long long p = 1; p < parts; ++p) builders.push_back(make_());
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

}  // namespace aerun::cli
