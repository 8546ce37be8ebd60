#include "aerun/sched/job_follower.hpp"

#include <poll.h>
#include <signal.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <set>

#include "aerun/judge/run_status.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/run/run_directory.hpp"
#include "aerun/run/signal_watch.hpp"
#include "aerun/sched/job_stamps.hpp"
#include "aerun/store/store.hpp"

namespace aerun {

namespace {
// Polls a run that ended in the queue waits for the scheduler's books to say so too.
constexpr int kBookWaits = 3;
}  // namespace

JobFollower::JobFollower(Store& store, SchedulerClient& client, std::ostream& out,
                         FollowOptions opts, Executor& exec)
    : store_(store), client_(client), out_(out), opts_(opts), exec_(exec) {}

void JobFollower::add(const RunRecord& r, const CaseSpec* spec) {
  runs_.push_back({r, spec, 0});
}

void JobFollower::finish(Followed& f, const RunState& state, const JobReport* report) {
  RunRecord& r = f.rec;
  const Extractor* blank = nullptr;
  if (f.spec) {
    auto [it, made] = blanks_.try_emplace(f.spec);
    if (made) it->second = try_extractor(*f.spec);
    if (it->second) blank = &*it->second;
  }
  collect_run(r, state, report, f.spec, blank);
  store_.finish_run(r);
  if (f.spec && f.spec->rundir && !r.rundir.empty())
    clean_run_directory(*f.spec->rundir, r.rundir, r.status);
  if (r.status == run_status::ok)
    ++sum_.ok;
  else
    ++sum_.failed;
  out_ << fmt::format("[{}] run {} {} (job {}{}){}\n", r.case_name, r.key.substr(0, 12), r.status,
                      r.job_id, r.scheduler_state.empty() ? "" : ", " + r.scheduler_state,
                      r.reason.empty() ? "" : ": " + r.reason);
  if (on_finished_) on_finished_(r);
}

bool JobFollower::poll_once() {
  if (runs_.empty()) return true;
  std::vector<std::string> ids;
  std::set<std::string> seen;
  for (const auto& f : runs_) {
    const std::string base = client_.base_id(f.rec.job_id);
    if (seen.insert(base).second) ids.push_back(base);
  }
  const QueryResult q = client_.query(ids);
  if (!q.ok) {
    ++sum_.query_failures;
    sum_.last_error = q.error;
    return false;
  }
  const Books books = books_of_ending(q);
  for (size_t i = 0; i < runs_.size();) {
    if (follow_one(runs_[i], q, books))
      runs_.erase(runs_.begin() + static_cast<long>(i));
    else
      ++i;
  }
  return true;
}

JobFollower::Books JobFollower::books_of_ending(const QueryResult& q) {
  // The runs whose end is known now (the queue says they ended, or they are leaving it): the
  // scheduler's accounting, asked once for all of them, adds what the queue does not say (peak
  // memory) and answers for the jobs the queue no longer shows.
  std::vector<std::string> ending;
  for (const auto& f : runs_) {
    const JobReport* rep = q.find(f.rec.job_id);
    if (rep ? rep->run_state.finished : f.missing + 1 >= opts_.missing_polls)
      ending.push_back(f.rec.job_id);
  }
  Books books;
  if (ending.empty()) return books;
  auto reports = client_.accounting(ending);
  if (!reports) return books;
  books.kept = true;
  for (auto& j : *reports)
    if (j.run_state.finished) books.finished[j.job_id] = std::move(j);
  return books;
}

bool JobFollower::follow_one(Followed& f, const QueryResult& q, const Books& books) {
  const JobReport* rep = q.find(f.rec.job_id);
  const auto acct = books.finished.find(f.rec.job_id);
  const bool in_books = acct != books.finished.end();
  if (rep) {
    f.missing = 0;
    if (!rep->run_state.finished) {
      note_state(f, *rep);
      return false;
    }
    // Ended in the queue, not yet in the books (slurmdbd is told within a second or so): their
    // peak memory is worth a poll or two more.
    if (books.kept && !in_books && ++f.book_waits <= kBookWaits) return false;
    JobReport full = *rep;
    if (in_books) {
      full.max_rss_kb = acct->second.max_rss_kb;
      if (full.nodes.empty()) full.nodes = acct->second.nodes;
      if (!full.exit_code) full.exit_code = acct->second.exit_code;
      if (!full.signal) full.signal = acct->second.signal;
    }
    finish(f, full.run_state, &full);
    return true;
  }
  if (++f.missing < opts_.missing_polls) return false;
  if (in_books) {
    finish(f, acct->second.run_state, &acct->second);  // gone from the queue, not from the books
    return true;
  }
  // Gone from the scheduler: what its script wrote decides, else it is lost.
  const JobStamps st = read_job_stamps(stamps_path(f.rec.log_path));
  if (st.end && st.exit_code) {
    finish(f, {*st.exit_code == 0 ? run_status::ok : run_status::failed, true}, nullptr);
  } else {
    f.rec.reason = fmt::format("job {} left the scheduler's queue {}", f.rec.job_id,
                               st.start ? "before its script ended" : "without starting");
    finish(f, {run_status::lost, true}, nullptr);
  }
  return true;
}

void JobFollower::note_state(Followed& f, const JobReport& rep) {
  if (rep.run_state.status == f.rec.status && rep.state == f.rec.scheduler_state &&
      rep.reason == f.rec.scheduler_reason)
    return;
  f.rec.status = rep.run_state.status;
  f.rec.scheduler_state = rep.state;
  f.rec.scheduler_reason = rep.reason;
  if (f.rec.status == run_status::running && !f.rec.job_start_time) {
    const JobStamps st = read_job_stamps(stamps_path(f.rec.log_path));
    f.rec.job_start_time = st.start ? st.start : rep.start_time;
    if (f.rec.job_start_time && f.rec.submit_time)
      f.rec.queue_wait_s = *f.rec.job_start_time - *f.rec.submit_time;
    f.rec.launch_time = f.rec.job_start_time;
  }
  store_.update_job(f.rec);
}

std::vector<RunRecord> JobFollower::outstanding_runs() const {
  std::vector<RunRecord> out;
  for (const auto& f : runs_) out.push_back(f.rec);
  return out;
}

int JobFollower::follow(const std::function<void()>& between) {
  SignalWatch signals;
  double interval = opts_.poll_s;
  const double give_up = opts_.max_wait_s > 0 ? exec_.mono_now() + opts_.max_wait_s : 0;
  while (!runs_.empty()) {
    const size_t before = runs_.size();
    if (!poll_once()) {
      out_ << fmt::format("scheduler query failed ({}); retrying in {:.0f} s\n", sum_.last_error,
                          std::ceil(interval));
      interval = std::min(opts_.max_poll_s, interval * 2);
    } else {
      interval = runs_.size() < before ? opts_.poll_s : std::min(opts_.max_poll_s, interval * 1.5);
    }
    if (between) between();
    if (runs_.empty()) break;
    if (give_up > 0 && exec_.mono_now() >= give_up) break;
    // Wait the whole interval: a child that exits (squeue's own, SIGCHLD) wakes the wait but
    // is no reason to ask the scheduler again; only Ctrl-C / SIGTERM ends the wait early.
    if (wait_unless_stopped(exec_, signals, exec_.mono_now() + interval) != 0) {
      out_ << fmt::format(
          "{} received: {} job(s) keep running in the scheduler; `aerun collect` gathers them "
          "later\n",
          signal_name(signals.stop_signal()), runs_.size());
      return signals.stop_signal();
    }
  }
  return 0;
}

}  // namespace aerun
