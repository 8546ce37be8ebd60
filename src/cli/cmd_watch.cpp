// `aerun watch [CASE]`: the running and pending runs of a case (or of every case), read from the
// store, their logs as they are written and, for batch jobs, the scheduler itself (asked with the
// follower's polite polling): status, node(s), iteration/total, rate, time since the last output,
// ETA and the last metric values. Refreshes in place on a terminal until nothing runs; `--once`
// prints one plain report.
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "aerun/case/poll_interval.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/judge/run_status.hpp"
#include "aerun/report/session_pick.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/sched/scheduler_client.hpp"
#include "aerun/util/calendar_time.hpp"
#include "aerun/util/terminal_text.hpp"
#include "aerun/util/text_format.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

namespace fs = std::filesystem;

struct WatchArgs {
  std::string case_name;
  bool once = false;
  double interval_s = 2;
  std::string poll;  // --poll-interval
};

// What the schedulers say about the batch runs on view, asked as the job follower asks: one query
// per scheduler for all the runs' jobs, then again after the poll interval (growing by half while
// no job changed, back to the first after a change; never under $AERUN_POLL_MIN), however often
// the view itself refreshes.
class SchedulerView {
 public:
  explicit SchedulerView(PollInterval p) : poll_(p), interval_(p.min_s) {}

  // Asks the schedulers when the interval has passed (or the runs' jobs changed).
  void refresh(const std::vector<RunRecord>& runs) {
    std::map<std::string, std::vector<std::string>> bases;  // scheduler -> base ids
    std::string asked;
    for (const auto& r : runs) {
      if (r.job_id.empty() || r.scheduler.empty()) continue;
      auto& ids = bases[r.scheduler];
      const std::string base = client(r.scheduler).base_id(r.job_id);
      if (std::find(ids.begin(), ids.end(), base) == ids.end()) ids.push_back(base);
    }
    for (const auto& [s, ids] : bases) asked += s + ":" + join_ids(ids) + ";";
    const double now = mono_now();
    if (asked == asked_ && now < next_) return;
    std::map<std::string, JobReport> jobs;
    errors_.clear();
    for (const auto& [s, ids] : bases) {
      const QueryResult q = client(s).query(ids);
      ++queries_;
      if (!q.ok) errors_ += (errors_.empty() ? "" : "; ") + q.error;
      for (const auto& j : q.jobs) jobs[j.job_id] = j;
    }
    const std::string seen = signature(jobs);
    interval_ =
        (seen == seen_ && asked == asked_) ? std::min(poll_.max_s, interval_ * 1.5) : poll_.min_s;
    seen_ = seen;
    asked_ = asked;
    jobs_ = std::move(jobs);
    next_ = now + interval_;
  }

  // The scheduler's report on a run's job; null for local runs or when it no longer knows it.
  const JobReport* find(const RunRecord& r) const {
    if (r.job_id.empty()) return nullptr;
    const auto it = jobs_.find(r.job_id);
    return it == jobs_.end() ? nullptr : &it->second;
  }
  const std::string& errors() const { return errors_; }
  int queries() const { return queries_; }

 private:
  SchedulerClient& client(const std::string& name) {
    auto it = clients_.find(name);
    if (it == clients_.end())
      it = clients_.emplace(name, make_scheduler_client(parse_scheduler(name))).first;
    return *it->second;
  }
  static std::string join_ids(const std::vector<std::string>& ids) {
    std::string out;
    for (const auto& id : ids) out += id + ",";
    return out;
  }
  static std::string signature(const std::map<std::string, JobReport>& jobs) {
    std::string out;
    for (const auto& [id, j] : jobs) out += id + "=" + j.state + ";";
    return out;
  }

  PollInterval poll_;
  double interval_;
  double next_ = 0;
  std::string asked_, seen_, errors_;
  std::map<std::string, JobReport> jobs_;
  std::map<std::string, std::unique_ptr<SchedulerClient>> clients_;
  int queries_ = 0;
};

// The last `bytes` of a log (from a line start), for the latest counter and metric values.
std::string log_tail(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const auto size = static_cast<size_t>(in.tellg());
  const size_t from = size > bytes ? size - bytes : 0;
  in.seekg(static_cast<std::streamoff>(from));
  std::string text(size - from, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (from > 0) {
    const auto nl = text.find('\n');
    text.erase(0, nl == std::string::npos ? text.size() : nl + 1);
  }
  return text;
}

std::string clock_text(double s) {
  if (s < 0) return "?";
  const long long t = static_cast<long long>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{}:{:02}", t / 60, t % 60);
}

std::string ago(double s) {
  if (s < 0) return "-";
  return s < 120 ? fmt::format("{:.0f} s ago", s) : fmt::format("{:.0f} min ago", s / 60);
}

// A run's state for the view: the scheduler's word for a batch job it reports on (running,
// pending, or ended: finished but not yet collected into the store), else the store's.
std::string view_state(const RunRecord& r, const JobReport* job) {
  if (!job) return r.status;
  if (job->run_state.finished) return "ended";
  return job->run_state.status == run_status::pending ? run_status::pending : run_status::running;
}

// One report of what runs now; *any is false when nothing is running or pending any more.
std::string watch_report(const Store& store, const std::string& case_name, SchedulerView& sched,
                         bool* any) {
  std::vector<RunRecord> runs;
  for (const char* status : {run_status::running, run_status::pending}) {
    RunFilter f;
    f.case_name = case_name;
    f.status = status;
    auto more = store.list(f);
    runs.insert(runs.end(), more.begin(), more.end());
  }
  sched.refresh(runs);
  std::vector<std::string> states;
  for (const auto& r : runs) states.push_back(view_state(r, sched.find(r)));
  const auto count = [&](const char* s) { return std::count(states.begin(), states.end(), s); };
  *any = count(run_status::running) + count(run_status::pending) > 0;
  const double now = wall_now();
  std::string out = fmt::format(
      "aerun watch{}: {} running, {} pending{} at {}\n", case_name.empty() ? "" : " " + case_name,
      count(run_status::running), count(run_status::pending),
      count("ended") ? fmt::format(", {} ended", count("ended")) : "", iso8601(now));
  if (!sched.errors().empty())
    out += "the scheduler could not be asked (" + sched.errors() + "): states as stored\n";
  if (runs.empty()) return out + "nothing is running.\n";
  out += fmt::format("{:<13} {:<9} {:<12} {:<20} {:>9} {:>11} {:>8}  {}\n", "run", "status", "host",
                     "progress", "rate", "last output", "ETA", "last values");
  std::map<std::string, std::optional<CaseSpec>> specs;
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunRecord& r = runs[i];
    const JobReport* job = sched.find(r);
    const std::string& state = states[i];
    auto it = specs.find(r.case_name);
    if (it == specs.end()) it = specs.emplace(r.case_name, case_of({r})).first;
    std::string progress = "-", rate = "-", eta = "-", last = "-", values;
    if (state != run_status::pending && !r.log_path.empty() && it->second) {
      const CaseSpec& spec = *it->second;
      Extractor ex(spec);
      ex.feed(log_tail(r.log_path, 1 << 20));
      ex.finish();
      RunEvidence ev;
      ex.describe(ev);
      const double started = r.launch_time.value_or(
          r.job_start_time.value_or(job && job->start_time ? *job->start_time : now));
      const double elapsed = now - started;
      if (ev.counter_done && ev.counter_planned && *ev.counter_planned > 0) {
        const double done = *ev.counter_done, total = *ev.counter_planned;
        progress = fmt::format("{:.0f}/{:.0f} ({:.0f}%)", done, total, 100 * done / total);
        if (done > 0 && elapsed > 0) {
          rate = fmt::format("{:.3g}/s", done / elapsed);
          eta = clock_text((total - done) * elapsed / done);
        }
      } else if (ev.progress_lines > 0) {
        progress = fmt::format("{} lines", ev.progress_lines);
      }
      struct stat st {};
      if (::stat(r.log_path.c_str(), &st) == 0)
        last = ago(now - (st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9));
      for (const auto& m : ex.metrics()) {
        if (values.size() > 60) break;
        values += fmt::format("{}{}={}", values.empty() ? "" : " ", m.name, format_number(m.value));
      }
    }
    // A batch job: where the scheduler runs it, why it waits, how it ended.
    std::string host = r.host;  // a local run's; a batch job's are the scheduler's nodes
    if (job) host = job->nodes.empty() ? "-" : job->nodes;
    if (job && state == run_status::pending)
      values = job->state + (job->reason.empty() ? "" : " (" + job->reason + ")");
    if (job && state == "ended")
      values = job->state + ": `aerun collect` stores it" + (values.empty() ? "" : "; " + values);
    out += fmt::format("{:<13} {:<9} {:<12} {:<20} {:>9} {:>11} {:>8}  {}\n", r.key.substr(0, 12),
                       state, host.substr(0, 12), progress, rate, last, eta, values);
  }
  return out;
}

int watch_command(const Globals& g, const WatchArgs& a) {
  const Store store = open_existing_store(g.resolved_db());
  if (!a.case_name.empty()) require_case(store, a.case_name, g.resolved_db());
  std::optional<PollInterval> cli;
  if (!a.poll.empty()) cli = parse_poll_interval(a.poll, SourceLoc{}, "--poll-interval");
  std::string warning;
  SchedulerView sched(resolve_poll_interval(cli, std::nullopt, &warning));
  if (!warning.empty()) std::cerr << "aerun: note: " << warning << "\n";
  bool any = false;
  if (a.once || !::isatty(STDOUT_FILENO)) {
    std::cout << watch_report(store, a.case_name, sched, &any);
    return 0;
  }
  for (;;) {
    const std::string report = watch_report(store, a.case_name, sched, &any);
    terminal_control(std::cout, "\033[H\033[2J");  // home, clear: refresh in place
    std::cout << report << std::flush;
    if (!any) return 0;
    std::this_thread::sleep_for(std::chrono::duration<double>(a.interval_s));
  }
}

}  // namespace

void add_watch_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<WatchArgs>();
  CLI::App* c = app.add_subcommand(
      "watch", "the running and pending runs: progress, rate, ETA, last values (live)");
  c->add_option("case", a->case_name, "a case (default: every case)");
  c->add_flag("--once", a->once, "print one report and exit (also when not on a terminal)");
  c->add_option("--interval", a->interval_s, "seconds between refreshes (default 2)")
      ->check(CLI::Range(0.2, 3600.0));
  c->add_option("--poll-interval", a->poll,
                "how often to ask a batch scheduler: FIRST[..LONGEST] (default 1s..30s)");
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, a] { action = [&g, a] { return watch_command(g, *a); }; });
}

}  // namespace aerun::cli
