// The local run loop, in the shape of ninja's Builder: a queue of planned runs, the runs in
// flight (ActiveRun: output, exit and deadline handling), progress as an observer, and the status
// of each finished run from the one judge (run_judge.hpp).
#include "aerun/run/case_runner.hpp"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <unordered_map>

#include "aerun/judge/failure_policy.hpp"
#include "aerun/judge/run_status.hpp"
#include "aerun/run/child_process.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/run/reuse_rule.hpp"
#include "aerun/run/run_directory.hpp"
#include "aerun/run/signal_watch.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/created_file.hpp"
#include "aerun/util/env_vars.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/process_identity.hpp"
#include "run/active_run.hpp"
#include "run/gpu_lock.hpp"
#include "run/progress.hpp"

namespace aerun {

namespace fs = std::filesystem;

namespace {

// The host's environment, then aerun's additions, the point's rendezvous variables, the run's
// identity and the case's `env:`: later ones win. PYTHONUNBUFFERED=1 unless set (a case turns it
// off with `PYTHONUNBUFFERED: ""`): Python block-buffers stdout into a pipe, so without it a run's
// lines reach aerun when the buffer fills or the program ends, and the first-output and first-step
// stamps and the stall watchdog see them late (27 s late in a 32 s Lightning run on an H100:
// tests/device/README.md).
std::vector<std::string> child_environment(const CaseSpec& spec, const PlannedRun& plan,
                                           const RunnerOptions& opts, int attempt,
                                           const std::string& rundir) {
  EnvVars env = process_environment();
  set_vars(env, opts.env);
  if (!find_var(env, "PYTHONUNBUFFERED")) set_var(env, "PYTHONUNBUFFERED", "1");
  set_vars(env, plan.env);
  set_var(env, "AERUN_CASE", spec.name);
  set_var(env, "AERUN_RUN_KEY", plan.key);
  set_var(env, "AERUN_REPEAT", std::to_string(plan.repeat_index));
  set_var(env, "AERUN_ATTEMPT", std::to_string(attempt));
  if (!rundir.empty()) set_var(env, "AERUN_RUNDIR", rundir);
  for (const auto& [name, value] : spec.env) set_var(env, name, value.text());
  return to_entries(env);
}

// Runs a store call the loop can do without for now: the store's "locked" message when it stayed
// locked past the loop's short wait (another process writes it), else nothing. The loop goes on
// either way; each caller says what becomes of what it asked.
template <class Call>
std::optional<std::string> busy_during(Call&& call) {
  try {
    call();
    return std::nullopt;
  } catch (const StoreBusy& e) {
    return std::string(e.what());
  }
}

// A planned run still to do, with the attempts it has left.
struct Todo {
  const PlannedRun* plan;
  int attempts_left;
};

// The state of one `CaseRunner::run`: what is queued, what runs, what was counted.
class RunLoop {
 public:
  RunLoop(const CaseSpec& spec, Store& store, const RunnerOptions& opts, Executor& exec,
          Progress& progress, RunSummary& sum, fs::path case_logs)
      : spec_(spec),
        store_(store),
        opts_(opts),
        exec_(exec),
        progress_(progress),
        sum_(sum),
        case_logs_(std::move(case_logs)) {}

  // Queues a run unless the store keeps its earlier result (every run with --force); when the
  // queue is full, runs the loop until there is room, so a sweep of any size is streamed in
  // bounded memory. Whether a run is done or another aerun runs it is decided again, atomically,
  // when it is claimed (start). Returns false once aerun was asked to stop.
  bool feed(const PlannedRun& p);
  // Until the queue is empty and every run has finished (or aerun was asked to stop).
  void run();
  // Says which earlier results were kept, once every run was fed.
  void note_kept();
  int stop_signal() const { return signals_.stop_signal(); }

 private:
  // A planned run owned while it is queued, running or waiting, with the attempts it has left.
  struct Owned {
    std::unique_ptr<const PlannedRun> plan;
    int attempts_left = 0;
  };
  void step();
  void release(const PlannedRun* p) { owned_.erase(p); }
  void launch_ready();
  enum class Started { Yes, No, StoreBusy };  // No: done, or run by another aerun
  Started start(const Todo& t);
  void wait_for_others();
  // Nothing runs: waits (for a stop signal at most) until the store is tried again.
  void idle_until(double mono);
  void keep(const std::string& status);
  void send_heartbeat();
  void wait_for_events();
  void on_stop_signal();
  void read_outputs();
  void finish_done_runs();
  // Stores a finished run and queues its retry or lets its plan go; a busy store keeps it in
  // unsaved_ to be written later, while the other runs go on.
  void settle(RunRecord r, const PlannedRun* plan);
  void save_unsaved();
  // A stored run this invocation does not run again: a result the failure policy keeps, made in
  // this session when the session runs every point anew.
  bool reusable(const RunRecord& prev, const std::string& digest) const {
    return stored_run_stands(prev, policy_, opts_.fresh_session, opts_.session_id, digest);
  }

  const CaseSpec& spec_;
  Store& store_;
  const RunnerOptions& opts_;
  Executor& exec_;
  Progress& progress_;
  RunSummary& sum_;
  const std::string host_ = host_name();
  const std::string commit_ = git_commit(spec_.workdir);
  const int jobs_ = spec_.exclusive_gpu ? 1 : std::max(1, opts_.jobs);
  const FailurePolicy policy_{spec_.rerun, spec_.retry_on, opts_.force, opts_.rerun_failed};
  fs::path case_logs_;
  std::map<std::string, int> kept_;  // status -> runs kept as results
  std::deque<Todo> queue_;
  std::deque<Todo> waiting_;  // run by another live aerun: claimed again once it is done
  std::vector<std::string> busy_noted_;
  double next_heartbeat_ = 0;
  std::unordered_map<const PlannedRun*, Owned> owned_;
  const size_t window_ = std::max<size_t>(256, 8 * static_cast<size_t>(jobs_));
  std::vector<std::unique_ptr<ActiveRun>> active_;
  std::optional<Extractor> blank_;  // the runs' extractors are fresh() copies of it
  bool blank_tried_ = false;
  // Finished runs whose result the store could not take yet (locked past its busy limit).
  struct Unsaved {
    RunRecord rec;
    const PlannedRun* plan;
    double since;
  };
  std::vector<Unsaved> unsaved_;
  double next_unsaved_try_ = 0;
  double retry_since_ = 0;  // while save_unsaved tries one again: when it was first refused
  // A claim found the store locked: the queue waits until then (the runs in flight go on).
  double next_claim_try_ = 0;
  static constexpr double kClaimRetryS = 1;
  static constexpr int kLoopBusyWaitMs = 200;
  SignalWatch signals_;
  GpuLock gpu_lock_;
  std::vector<char> buf_ = std::vector<char>(1 << 16);
  std::vector<pollfd> pfds_;
};

bool RunLoop::feed(const PlannedRun& p) {
  if (signals_.stop_signal() != 0) return false;
  if (auto prev = store_.find_by_key(p.key)) {
    if (reusable(*prev, planned_image_digest(spec_, p))) {
      keep(prev->status);
      return true;
    }
  }
  auto copy = std::make_unique<const PlannedRun>(p);
  const PlannedRun* key = copy.get();
  owned_[key] = {std::move(copy), spec_.retries + 1};
  queue_.push_back({key, spec_.retries + 1});
  while (queue_.size() >= window_ && signals_.stop_signal() == 0) step();
  return signals_.stop_signal() == 0;
}

void RunLoop::note_kept() {
  if (!kept_.empty()) {
    std::string what;
    for (const auto& [status, n] : kept_)
      what += fmt::format("{}{} {}", what.empty() ? "" : ", ", n, status);
    progress_.note(
        fmt::format("kept {} earlier result(s) ({}): run them again with "
                    "--rerun-failed or the case's `rerun:`",
                    sum_.kept, what));
  }
}

// A stored run this invocation does not run again: reused when ok, kept when a failure.
void RunLoop::keep(const std::string& status) {
  if (status == run_status::ok) {
    ++sum_.reused;
    progress_.reused();
  } else {
    ++sum_.kept;
    ++kept_[status];
  }
}

// Only runs another aerun holds are left: look again every second (their claims are re-read:
// done, failed, or stale when their owner died). A stop signal leaves them to their owner.
void RunLoop::wait_for_others() {
  pfds_.assign(1, {signals_.fd(), POLLIN, 0});
  exec_.wait(pfds_, exec_.mono_now() + 1);
  signals_.drain();
  if (signals_.stop_signal() != 0) {
    sum_.busy += static_cast<int>(waiting_.size());
    waiting_.clear();
    return;
  }
  queue_.insert(queue_.end(), waiting_.begin(), waiting_.end());
  waiting_.clear();
}

// One turn of the loop: start what may start, wait for something to happen, handle it.
void RunLoop::step() {
  save_unsaved();
  launch_ready();
  if (active_.empty()) {
    if (!queue_.empty() && signals_.stop_signal() == 0)
      idle_until(next_claim_try_);
    else if (!waiting_.empty())
      wait_for_others();
    else if (!unsaved_.empty())
      idle_until(next_unsaved_try_);
    return;
  }
  wait_for_events();
  read_outputs();
  finish_done_runs();
  send_heartbeat();
  // Live progress: on a terminal the progress line shows a running run's iteration, rate and
  // ETA; without one, a plain line each time a run passes another tenth of its total.
  std::string live;
  for (auto& a : active_) {
    if (live.empty()) live = a->live_progress();
    if (!opts_.tty)
      if (const int tenth = a->crossed_tenth(); tenth > 0)
        progress_.note(
            fmt::format("run {}: {}", a->record().key.substr(0, 12), a->live_progress()));
  }
  progress_.tick(static_cast<int>(active_.size()), live);
}

// Tells other aerun processes every kHeartbeatS that this one still runs its runs.
void RunLoop::send_heartbeat() {
  const double now = exec_.mono_now();
  if (now < next_heartbeat_) return;
  next_heartbeat_ = now + Store::kHeartbeatS;
  std::vector<long long> ids;
  for (const auto& a : active_)
    if (a->started()) ids.push_back(a->record().id);
  std::vector<long long> lost;
  // Busy: the next one comes in kHeartbeatS; the claims stay fresh enough.
  busy_during([&] { lost = store_.heartbeat(ids); });
  // A run another aerun took over (this one was stopped or cut off for longer than
  // kStaleAfterS) is stopped at once: one point never runs twice for longer than a heartbeat.
  for (const auto& a : active_)
    if (std::find(lost.begin(), lost.end(), a->record().id) != lost.end() && !a->done()) {
      progress_.note(fmt::format("run {}: another aerun took it over; this copy is stopped",
                                 a->record().key.substr(0, 12)));
      a->interrupt(now, opts_.kill_grace_s, "its claim taken over by another aerun");
    }
}

void RunLoop::run() {
  // Inside the loop a locked store is waited on briefly, then tried again later (the runs go on
  // and their times stay true); a result waits up to opts_.store_busy_limit_s.
  struct ShortBusyWait {
    Store& s;
    explicit ShortBusyWait(Store& st) : s(st) { s.set_busy_timeout_ms(kLoopBusyWaitMs); }
    ~ShortBusyWait() { s.set_busy_timeout_ms(Store::kBusyTimeoutMs); }
  } short_wait(store_);
  while (!queue_.empty() || !active_.empty() || !waiting_.empty() || !unsaved_.empty()) {
    step();
    // Stopped: no run starts, but a finished run's result is still written once the store is free.
    if (active_.empty() && unsaved_.empty() && signals_.stop_signal() != 0) break;
  }
}

// Starts queued runs while slots are free (and, with `exclusive: gpu`, the GPU lock is ours).
void RunLoop::launch_ready() {
  if (exec_.mono_now() < next_claim_try_) return;
  while (signals_.stop_signal() == 0 && !queue_.empty() &&
         static_cast<int>(active_.size()) < jobs_) {
    const Todo t = queue_.front();
    queue_.pop_front();
    if (spec_.exclusive_gpu) {
      const std::string who = fmt::format("pid {}, case {}, host {}", getpid(), spec_.name, host_);
      if (!gpu_lock_.acquire(GpuLock::default_path(), who, [&](const std::string& holder) {
            progress_.note(fmt::format("waiting for the GPU lock {} (held by {})",
                                       GpuLock::default_path(), holder));
          })) {
        signals_.drain();
        queue_.push_front(t);
        return;
      }
    }
    const Started started = start(t);
    if (started == Started::Yes) {
      owned_[t.plan].attempts_left -= 1;
    } else if (spec_.exclusive_gpu) {
      gpu_lock_.release();
    }
    if (started == Started::StoreBusy) {
      // Tried again in a second, not at once: the runs in flight are read meanwhile.
      next_claim_try_ = exec_.mono_now() + kClaimRetryS;
      return;
    }
  }
}

void RunLoop::idle_until(double mono) {
  pfds_.assign(1, {signals_.fd(), POLLIN, 0});
  exec_.wait(pfds_, mono);
  const int stop_before = signals_.stop_signal();
  if (signals_.drain() != 0 && stop_before == 0) on_stop_signal();
}

RunLoop::Started RunLoop::start(const Todo& t) {
  const PlannedRun& p = *t.plan;
  RunRecord r = new_run_record(spec_, p, host_, commit_);
  r.status = run_status::running;
  r.launch_time = exec_.wall_now();
  const bool first = owned_[t.plan].attempts_left == spec_.retries + 1;
  r.session_id = opts_.session_id;
  if (spec_.rundir) {
    r.rundir = run_directory(spec_, p.params, p.key, p.repeat_index,
                             fs::path(opts_.logs_dir).parent_path().string());
    // A run folder is emptied before each attempt: one that holds the store's folder would take
    // the store and its logs with it (issue 40's third pass: the case then said "1 ok").
    const fs::path store_dir = fs::absolute(fs::path(opts_.logs_dir)).parent_path();
    const fs::path rundir = fs::path(r.rundir).lexically_normal();
    const fs::path rel = store_dir.lexically_normal().lexically_relative(rundir);
    if (!rel.empty() && *rel.begin() != "..")
      throw SystemError(fmt::format(
          "rundir {} holds the store's folder {}: a run folder is emptied before each attempt; "
          "keep the store (--db) outside run folders",
          r.rundir, store_dir.string()));
  }
  Store::Claim claim;
  if (busy_during([&] {
        claim = store_.claim_run(r, [&](const RunRecord& found) {
          // a retry re-claims its own failure
          return first ? reusable(found, r.container_digest) : false;
        });
      })) {
    queue_.push_back(t);  // tried again later, after the runs already queued
    return Started::StoreBusy;
  }
  if (claim.outcome == Store::Claim::Outcome::Done) {
    keep(claim.found.status);
    release(t.plan);
    return Started::No;
  }
  if (claim.outcome == Store::Claim::Outcome::Busy) {
    if (std::find(busy_noted_.begin(), busy_noted_.end(), p.key) == busy_noted_.end()) {
      busy_noted_.push_back(p.key);
      progress_.note(fmt::format("run {} is being run by aerun process {} on {}; waiting for it",
                                 p.key.substr(0, 12), claim.found.runner_pid, claim.found.host));
    }
    waiting_.push_back(t);
    return Started::No;
  }
  if (claim.leftover_pgid != 0 && group_survives(claim.leftover_pgid, claim.leftover_start)) {
    // Its aerun died (kill -9) while it ran: what the command started may still run. Stop it
    // first, so that a point never runs twice at once.
    progress_.note(fmt::format(
        "run {}: processes of its earlier attempt still run (process group {}, left by an aerun "
        "that died): stopping them before running it again",
        p.key.substr(0, 12), claim.leftover_pgid));
    if (!stop_group(claim.leftover_pgid, claim.leftover_start, opts_.kill_grace_s))
      progress_.note(fmt::format("run {}: process group {} could not be stopped",
                                 p.key.substr(0, 12), claim.leftover_pgid));
  }
  r.id = claim.id;
  r.attempt = claim.attempt;
  r.log_path =
      !r.rundir.empty()
          ? run_directory_log(r.rundir, r.attempt)
          : (case_logs_ / fmt::format("{}-a{}.log", r.key.substr(0, 16), r.attempt)).string();
  // For `aerun watch`; the result holds it too.
  busy_during([&] { store_.set_running_log(r.id, r.log_path); });
  r.status.clear();
  if (!blank_tried_) {  // the case's patterns, compiled once for all its runs
    blank_tried_ = true;
    blank_ = try_extractor(spec_);
  }
  auto a = std::make_unique<ActiveRun>(spec_, p, std::move(r), exec_, blank_ ? &*blank_ : nullptr);
  a->start(child_environment(spec_, p, opts_, claim.attempt, a->record().rundir));
  if (a->started()) {
    // What a resume after kill -9 stops; a busy store only loses that safety net.
    busy_during(
        [&] { store_.set_running_child(claim.id, a->child_pid(), a->child_start_ticks()); });
    progress_.started(a->record());
  }
  active_.push_back(std::move(a));
  return Started::Yes;
}

// Waits for output, a signal, or the next deadline of a run.
void RunLoop::wait_for_events() {
  pfds_.clear();
  pfds_.push_back({signals_.fd(), POLLIN, 0});
  const double now = exec_.mono_now();
  double wake = now + (opts_.tty ? 0.5 : 5.0);
  for (auto& a : active_) {
    if (a->output_fd() >= 0) pfds_.push_back({a->output_fd(), POLLIN, 0});
    if (a->progress_fd() >= 0) pfds_.push_back({a->progress_fd(), POLLIN, 0});
    wake = a->next_wake(wake);
  }
  exec_.wait(pfds_, wake);
  const int stop_before = signals_.stop_signal();
  if (signals_.drain() != 0 && stop_before == 0) on_stop_signal();
}

// Ctrl-C or SIGTERM: stop every run (SIGTERM, then SIGKILL after the grace); start no more.
void RunLoop::on_stop_signal() {
  const std::string name = signal_name(signals_.stop_signal());
  progress_.note(fmt::format("{} received: stopping {} running run(s)", name, active_.size()));
  for (auto& a : active_) a->interrupt(exec_.mono_now(), opts_.kill_grace_s, name);
  for (const Todo& t : queue_) release(t.plan);  // never started: counted as not started
  queue_.clear();
  sum_.busy += static_cast<int>(waiting_.size());  // left to the aerun that runs them
  waiting_.clear();
}

void RunLoop::read_outputs() {
  for (auto& a : active_) a->read_output(buf_);
}

// Reaps, enforces deadlines, and stores the runs that are done (queueing retries first).
void RunLoop::finish_done_runs() {
  const double now = exec_.mono_now();
  for (size_t i = 0; i < active_.size();) {
    ActiveRun& a = *active_[i];
    a.tick(now, opts_.kill_grace_s);
    if (!a.done()) {
      ++i;
      continue;
    }
    const PlannedRun* plan = &a.plan();
    RunRecord r = a.finish();
    if (spec_.exclusive_gpu) gpu_lock_.release();
    active_.erase(active_.begin() + static_cast<long>(i));
    settle(std::move(r), plan);
  }
}

void RunLoop::settle(RunRecord r, const PlannedRun* plan) {
  bool stored = false;
  if (const auto busy = busy_during([&] { stored = store_.finish_run(r); })) {
    const double now = exec_.mono_now();
    const double since = retry_since_ > 0 ? retry_since_ : now;
    if (now - since > opts_.store_busy_limit_s)
      throw SystemError(fmt::format(
          "run {}: the store stayed locked for over {:.0f} s; its result ({}) is in its log {}",
          r.key.substr(0, 12), opts_.store_busy_limit_s, r.status, r.log_path));
    if (since == now)
      progress_.note(
          fmt::format("run {}: the store is locked by another process ({}); its result "
                      "is kept and written as soon as it is free",
                      r.key.substr(0, 12), *busy));
    unsaved_.push_back({std::move(r), plan, since});
    return;
  }
  if (!stored) {
    progress_.note(
        fmt::format("run {}: another aerun took it over (this one was silent for over "
                    "{:.0f} s); its result is kept, not this one",
                    r.key.substr(0, 12), Store::kStaleAfterS));
    release(plan);
    return;
  }
  const bool retry =
      policy_.retries(r.status) && owned_[plan].attempts_left > 0 && signals_.stop_signal() == 0;
  if (r.status == run_status::ok)
    ++sum_.ok;
  else if (r.status == run_status::interrupted)
    ++sum_.interrupted;
  else if (!retry)
    ++sum_.failed;
  progress_.finished(r, retry);
  if (!retry && spec_.rundir && !r.rundir.empty())
    clean_run_directory(*spec_.rundir, r.rundir, r.status);
  if (retry)
    queue_.push_front({plan, owned_[plan].attempts_left});
  else
    release(plan);
}

// Tries the results a busy store did not take, once a second.
void RunLoop::save_unsaved() {
  if (unsaved_.empty() || exec_.mono_now() < next_unsaved_try_) return;
  next_unsaved_try_ = exec_.mono_now() + 1;
  std::vector<Unsaved> pending;
  pending.swap(unsaved_);
  for (Unsaved& u : pending) {
    retry_since_ = u.since;
    settle(std::move(u.rec), u.plan);
  }
  retry_since_ = 0;
}

}  // namespace

CaseRunner::CaseRunner(const CaseSpec& spec, Store& store, RunnerOptions opts, std::ostream& out,
                       Executor& exec)
    : spec_(spec), store_(store), opts_(std::move(opts)), out_(out), exec_(exec) {}

RunSummary CaseRunner::run(const std::vector<PlannedRun>& planned) {
  return run(
      [&](const std::function<bool(const PlannedRun&)>& sink) {
        for (const auto& p : planned)
          if (!sink(p)) return;
      },
      static_cast<long long>(planned.size()));
}

RunSummary CaseRunner::run(const PlanSource& source, long long total) {
  RunSummary sum;
  sum.planned = total;
  Progress progress(out_, opts_.tty, spec_.name, total);
  store_.reap_orphans(host_name());
  const fs::path logs = fs::absolute(fs::path(opts_.logs_dir)) / spec_.name;
  // logs/ and logs/<case> are aerun's: a link planted at either is not followed.
  make_own_directory(logs.string(), 2);
  RunLoop loop(spec_, store_, opts_, exec_, progress, sum, logs);
  source([&](const PlannedRun& p) { return loop.feed(p); });
  loop.run();
  loop.note_kept();
  sum.stop_signal = loop.stop_signal();
  if (sum.stop_signal != 0)
    sum.not_started = std::max(
        0LL, total - (sum.reused + sum.ok + sum.failed + sum.interrupted + sum.kept + sum.busy));
  progress.done(sum);
  return sum;
}

}  // namespace aerun
