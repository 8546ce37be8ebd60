#include "aerun/sched/batch_runner.hpp"
#include "aerun/run/reuse_rule.hpp"
#include "aerun/run/run_directory.hpp"

#include "aerun/judge/failure_policy.hpp"
#include "sched/job_script.hpp"
#include "sched/task_table.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <ostream>

#include "aerun/judge/run_status.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/run/signal_watch.hpp"
#include "aerun/sched/job_stamps.hpp"
#include "aerun/sched/scheduler_backend.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/created_file.hpp"
#include "aerun/util/sha256.hpp"

namespace aerun {

namespace fs = std::filesystem;

BatchRunner::BatchRunner(const CaseSpec& spec, Store* store, Scheduler scheduler, BatchOptions opts,
                         std::ostream& out, Executor& exec)
    : spec_(spec),
      store_(store),
      scheduler_(scheduler),
      opts_(std::move(opts)),
      out_(out),
      exec_(exec) {}

int BatchRunner::attempt_of(const PlannedRun& p) const {
  if (!store_) return 1;
  const auto prev = store_->find_by_key(p.key);
  return prev ? prev->attempt + 1 : 1;
}

std::vector<BatchJob> BatchRunner::plan_jobs(const std::vector<const PlannedRun*>& todo,
                                             SchedulerClient* client) const {
  const fs::path dir = fs::absolute(fs::path(opts_.logs_dir)) / spec_.name;
  std::vector<BatchJob> jobs;
  if (scheduler_ != Scheduler::None && spec_.resources.array && todo.size() > 1 &&
      scheduler_backend(scheduler_).has_arrays()) {
    // One array per distinct set of resources (a per-point `nodes: "{nodes}"` gives several),
    // in the order their first run comes in the sweep; a set with a single run is a plain job.
    std::vector<std::pair<std::string, std::vector<const PlannedRun*>>> groups;
    for (const PlannedRun* p : todo) {
      std::string sig = resources_signature(resources_of(spec_, *p)) + "#" +
                        (p->launcher ? launcher_signature(*p->launcher) : "");
      if (opts_.after_ok)  // an array waits only for its own runs' steps
        for (const auto& id : opts_.after_ok(*p)) sig += "#" + id;
      auto it = std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == sig; });
      if (it == groups.end())
        groups.push_back({sig, {p}});
      else
        it->second.push_back(p);
    }
    for (const auto& [sig, group] : groups) {
      const ArrayLimit limit = array_limit(client, resources_of(spec_, *group.front()).queue);
      const size_t most =
          limit.tasks ? static_cast<size_t>(std::max(*limit.tasks, 1)) : group.size();
      const int parts = static_cast<int>((group.size() + most - 1) / most);
      for (int part = 0; part < parts; ++part) {
        const auto from = group.begin() + static_cast<std::ptrdiff_t>(part * most);
        const std::vector<const PlannedRun*> runs(
            from, from + static_cast<std::ptrdiff_t>(std::min(most, group.size() - part * most)));
        array_job(runs, dir, jobs);  // one job: an array, or a plain job for a part of one run
        if (parts == 1) continue;
        BatchJob& j = jobs.back();
        j.part = part;
        j.parts = parts;
        j.after_previous = part > 0 && task_cap() > 0;
        j.cut_by = fmt::format(
            "{} runs in {} {} of at most {}: {}{}", group.size(), parts,
            most > 1 ? "arrays" : "jobs", most, limit.source,
            task_cap() > 0 ? fmt::format("; each starts when the one before it ended, so that at "
                                         "most {} run at once",
                                         task_cap())
                           : "");
      }
    }
    return jobs;
  }
  for (const PlannedRun* p : todo) single_job(*p, dir, jobs);
  return jobs;
}

void BatchRunner::array_job(const std::vector<const PlannedRun*>& runs, const fs::path& dir,
                            std::vector<BatchJob>& jobs) const {
  if (runs.size() == 1) {
    single_job(*runs.front(), dir, jobs);
    return;
  }
  BatchJob j;
  std::string ids;
  for (const PlannedRun* p : runs) {
    j.runs.push_back(p);
    j.attempts.push_back(attempt_of(*p));
    ids += p->key + ":" + std::to_string(j.attempts.back()) + "\n";
  }
  const SchedulerBackend& backend = scheduler_backend(scheduler_);
  j.name = backend.job_name(spec_.name + "-" + sha256_hex(ids).substr(0, 8));
  for (size_t i = 0; i < runs.size(); ++i)
    j.log_paths.push_back((dir / fmt::format("{}_{}.log", j.name, i)).string());
  j.output = (dir / fmt::format("{}_{}.log", j.name, backend.array_task_token())).string();
  j.script_path =
      (dir / "jobs" / (j.name + "." + std::string(backend.script_extension()))).string();
  // Read by path from the compute nodes, whatever directory the job starts in.
  j.tasks_path = fs::absolute(dir / "jobs" / (j.name + ".tasks")).string();
  j.resources = resources_of(spec_, *runs.front());
  jobs.push_back(std::move(j));
}

void BatchRunner::single_job(const PlannedRun& p, const fs::path& dir,
                             std::vector<BatchJob>& jobs) const {
  BatchJob j;
  j.runs = {&p};
  j.attempts = {attempt_of(p)};
  j.name = scheduler_backend(scheduler_).job_name(spec_.name + "-" + p.key.substr(0, 8));
  j.log_paths = {(dir / fmt::format("{}-a{}.log", p.key.substr(0, 16), j.attempts[0])).string()};
  j.output = j.log_paths[0];
  j.script_path = (dir / "jobs" /
                   fmt::format("{}-a{}.{}", j.name, j.attempts[0],
                               scheduler_backend(scheduler_).script_extension()))
                      .string();
  j.resources = resources_of(spec_, p);
  jobs.push_back(std::move(j));
}

std::string BatchRunner::rundir_of(const PlannedRun& p) const {
  if (!spec_.rundir) return "";
  return run_directory(spec_, p.params, p.key, p.repeat_index,
                       fs::path(opts_.logs_dir).parent_path().string());
}

std::string BatchRunner::write_script(const BatchJob& job) const {
  JobScriptRequest req;
  req.scheduler = scheduler_;
  req.job_name = job.name;
  req.output = job.output;
  req.env = opts_.env;
  req.aerun_binary = opts_.aerun_binary;
  req.resources = &job.resources;
  req.launcher = job.runs.front()->launcher.get();  // the same for every run of the job
  req.array_cap = task_cap();
  for (size_t i = 0; i < job.runs.size(); ++i)
    req.runs.push_back({job.runs[i]->key, job.runs[i]->repeat_index, job.runs[i]->command,
                        job.log_paths[i], stamps_path(job.log_paths[i]),
                        i < job.attempts.size() ? job.attempts[i] : 1, job.runs[i]->stall_s,
                        job.runs[i]->first_step_s, rundir_of(*job.runs[i])});
  req.tasks_path = job.tasks_path;
  const std::string text = render_job_script(spec_, req);
  // logs/, logs/<case> and logs/<case>/jobs are aerun's: a link put at any is never followed.
  constexpr int kOwnLevels = 3;
  make_own_directory(fs::path(job.script_path).parent_path().string(), kOwnLevels);
  // The user's own (0600, 0700): a script exports the case's env:, secrets included (issue 40).
  if (!req.tasks_path.empty())
    write_created_file(req.tasks_path, task_table(req), "task table", kOwnLevels, 0600);
  write_created_file(job.script_path, text, "job script", kOwnLevels, 0700);
  return text;
}

std::vector<BatchJob> BatchRunner::write_scripts(const std::vector<PlannedRun>& planned) {
  std::vector<const PlannedRun*> todo;
  for (const auto& p : planned) todo.push_back(&p);
  std::vector<BatchJob> jobs = plan_jobs(todo);
  for (const auto& job : jobs) write_script(job);
  return jobs;
}

std::string BatchRunner::submit_with_retries(const BatchJob& job, SchedulerClient& client,
                                             const JobDeps& after, BatchSummary& sum,
                                             double& submitted) {
  double delay = opts_.submit_backoff_s;
  for (int tries = 1;; ++tries) {
    try {
      submitted = exec_.wall_now();
      return client.submit(job.script_path, spec_.workdir, after);
    } catch (const SchedulerError& e) {
      if (!client.transient(e.what()) || tries >= opts_.submit_tries) throw;
      // The scheduler may have taken the job before its answer was lost: never submit it twice.
      if (auto taken = client.find_job(job.name)) {
        out_ << fmt::format("[{}] {} was taken as job {} although the scheduler said: {}\n",
                            spec_.name, job.name, *taken, e.what());
        return *taken;
      }
      ++sum.submit_retries;
      out_ << fmt::format("[{}] submitting {}: {}; trying again in {} s (try {} of {})\n",
                          spec_.name, job.name, e.what(), delay, tries + 1, opts_.submit_tries);
      out_.flush();
      SignalWatch
          signals;  // inside a follower's follow(), the stop is its to see too (watches nest)
      if ((sum.stop_signal = wait_unless_stopped(exec_, signals, exec_.mono_now() + delay)) != 0)
        return "";
      delay *= 2;
    }
  }
}

int BatchRunner::task_cap() const {
  int cap = spec_.resources.array_cap;
  if (opts_.max_queued > 0 && (cap == 0 || opts_.max_queued < cap)) cap = opts_.max_queued;
  return cap;
}

std::vector<RunRecord> BatchRunner::begin_runs(const BatchJob& job) const {
  const std::string host = host_name();
  const std::string commit = git_commit(spec_.workdir);
  std::vector<RunRecord> recs;
  for (size_t i = 0; i < job.runs.size(); ++i) {
    const PlannedRun& p = *job.runs[i];
    RunRecord r = new_run_record(spec_, p, host, commit);
    r.session_id = opts_.session_id;
    r.log_path = job.log_paths[i];
    r.scheduler = to_string(scheduler_);
    r.nodes.clear();  // known once the job ran
    r.rundir = rundir_of(p);
    r.id = store_->begin_run(r);
    r.attempt = job.attempts[i];
    // Leftovers of an earlier attempt with the same name must not be mistaken for this one's.
    std::error_code ec;
    fs::remove(r.log_path, ec);
    fs::remove(stamps_path(r.log_path), ec);
    recs.push_back(std::move(r));
  }
  return recs;
}

std::string BatchRunner::prepare_run_directories(const std::vector<RunRecord>& recs) const {
  for (const auto& r : recs) {
    if (r.rundir.empty()) continue;
    try {
      prepare_run_directory(spec_, r.rundir);
      std::error_code ec;
      for (const auto& [from, to] :
           {std::pair{r.log_path, run_directory_log(r.rundir, r.attempt)},
            std::pair{stamps_path(r.log_path),
                      stamps_path(run_directory_log(r.rundir, r.attempt))}})
        fs::create_symlink(fs::absolute(from), to, ec);
    } catch (const std::exception& e) {
      return e.what();
    }
  }
  return "";
}

JobDeps BatchRunner::dependencies_of(const BatchJob& job,
                                     const std::vector<std::string>& after_end) const {
  JobDeps after;
  after.any = after_end;
  if (opts_.after_ok)
    for (const PlannedRun* p : job.runs)
      for (const auto& id : opts_.after_ok(*p))
        if (std::find(after.ok.begin(), after.ok.end(), id) == after.ok.end())
          after.ok.push_back(id);
  return after;
}

void BatchRunner::end_unsent(std::vector<RunRecord>& recs, const std::string& status,
                             const std::string& reason, BatchSummary& sum) const {
  for (auto& r : recs) {
    r.status = status;
    if (!reason.empty()) r.reason = reason;
    r.end_time = exec_.wall_now();
    store_->finish_run(r);
    if (status != run_status::submit_failed) continue;
    ++sum.submit_failed;
    sum.last_error = r.reason;
  }
}

std::string BatchRunner::refusal_words(const BatchJob& job, SchedulerClient& client,
                                       const std::string& message, Refusal refusal) const {
  std::string why = scheduler_words(message);
  // An array over the cluster's limit: say which limit, and the way out.
  if (job.runs.size() > 1 && refusal == Refusal::ArrayTooLarge) {
    const ArrayLimit limit = array_limit(&client, job.resources.queue);
    why += fmt::format(
        " (an array of {} tasks; {}: set AERUN_MAX_ARRAY_SIZE to the cluster's limit, its {}, "
        "and aerun cuts arrays to fit)",
        job.runs.size(),
        limit.tasks ? "the limit aerun knew: " + limit.source : "aerun could not read the limit",
        scheduler_backend(client.kind()).array_limit_setting());
  } else if (refusal == Refusal::QueueLimit) {
    // A per-user, -group or -project limit: each array task counts as a job.
    why += fmt::format(
        " (a limit on your jobs in the queue, each array task counting as one: {} asked for {} "
        "more; see `{}`, then keep fewer queued at once: AERUN_MAX_ARRAY_SIZE and --max-queued)",
        job.runs.size() > 1 ? "this array" : "this job", job.runs.size(),
        client.queue_limit_command());
  }
  return why;
}

void BatchRunner::hold_back(const BatchJob& job, std::vector<RunRecord>& recs,
                            const std::string& why, BatchSummary& sum) const {
  out_ << fmt::format("[{}] {} held back ({}): submitted again when earlier jobs end\n", spec_.name,
                      job.name, why.substr(why.rfind(": ") + 2));
  for (auto& r : recs) {
    r.status = run_status::pending;
    r.reason = "held back by a per-user limit of the scheduler: " + why;
    r.job_id.clear();
    r.scheduler_state = "HELD_BY_AERUN";
    store_->update_job(r);
  }
  ++sum.held;
}

void BatchRunner::mark_submitted(const BatchJob& job, std::vector<RunRecord>& recs,
                                 const std::string& id, double submitted, SchedulerClient& client,
                                 JobFollower& follower, BatchSummary& sum) const {
  ++sum.jobs;
  out_ << fmt::format("[{}] submitted job {} ({} run{}): {}\n", spec_.name, id, recs.size(),
                      recs.size() == 1 ? "" : "s, an array", job.script_path);
  for (size_t i = 0; i < recs.size(); ++i) {
    RunRecord& r = recs[i];
    r.status = run_status::pending;
    r.reason.clear();
    r.submit_time = submitted;
    r.job_id = job.runs.size() > 1 ? client.task_id(id, static_cast<int>(i)) : id;
    if (job.runs.size() > 1) r.array_index = static_cast<int>(i);
    r.scheduler_state = "SUBMITTED";
    store_->update_job(r);
    follower.add(r, &spec_);
    ++sum.submitted;
  }
}

BatchRunner::Sent BatchRunner::submit_job(const BatchJob& job, SchedulerClient& client,
                                          JobFollower& follower, BatchSummary& sum,
                                          const std::vector<std::string>& after_end,
                                          std::string* id_out, std::vector<RunRecord>* held) {
  const bool resumed = held && !held->empty();  // begun already, then held back
  std::vector<RunRecord> recs = resumed ? std::move(*held) : begin_runs(job);
  // Each run's own directory is made ready here, on the shared filesystem the logs are on: its
  // inputs are copied as they are at submission. Its log and stamps (the scheduler's files) are
  // linked into it.
  if (const std::string error = resumed ? "" : prepare_run_directories(recs); !error.empty()) {
    out_ << fmt::format("[{}] not submitting {}: {}\n", spec_.name, job.script_path, error);
    end_unsent(recs, run_status::submit_failed, error, sum);
    return Sent::Failed;
  }
  write_script(job);
  double submitted = exec_.wall_now();
  std::string id;
  try {
    id = submit_with_retries(job, client, dependencies_of(job, after_end), sum, submitted);
  } catch (const SchedulerError& e) {
    const Refusal refusal = client.refusal(e.what());
    if (refusal == Refusal::QueueLimit && held && opts_.wait && follower.outstanding() > 0) {
      // Jobs of this aerun hold the quota: these runs go out when some of them ended. Said (and
      // counted) once a job, however often the quota is still full when it is tried again.
      if (!resumed) hold_back(job, recs, scheduler_words(e.what()), sum);
      *held = std::move(recs);
      return Sent::Held;
    }
    const std::string why = refusal_words(job, client, e.what(), refusal);
    out_ << fmt::format("[{}] submitting {} failed: {}\n", spec_.name, job.script_path, why);
    end_unsent(recs, run_status::submit_failed, why, sum);
    return Sent::Failed;
  }
  if (id.empty()) {  // stopped while waiting to try again
    end_unsent(
        recs, run_status::interrupted,
        fmt::format("stopped by {} before the scheduler took it", signal_name(sum.stop_signal)),
        sum);
    return Sent::Failed;
  }
  if (id_out) *id_out = id;
  mark_submitted(job, recs, id, submitted, client, follower, sum);
  return Sent::Submitted;
}

// The jobs of one run(): submitted in sweep order while --max-queued leaves room, held back by
// a per-user limit (those go first, in order, when earlier jobs end), or a transient failure's
// next attempt.
struct BatchRunner::Queue {
  Queue(BatchRunner& r, SchedulerClient& c, JobFollower& f, BatchSummary& s,
        std::vector<BatchJob> planned)
      : runner(r), client(c), follower(f), sum(s), jobs(std::move(planned)), ids(jobs.size()) {}

  BatchRunner& runner;
  SchedulerClient& client;
  JobFollower& follower;
  BatchSummary& sum;
  std::vector<BatchJob> jobs;
  std::vector<std::string> ids;  // each job's id once submitted
  struct Held {
    size_t job;
    std::vector<RunRecord> recs;
  };
  std::deque<Held> held;  // held back by a per-user limit, in sweep order
  std::vector<BatchJob> retry_jobs;
  size_t next = 0;

  // Job i waits for the part before it to end, however it ends (a cut array under a cap).
  std::vector<std::string> after_end(size_t i) const {
    return jobs[i].after_previous && i > 0 && !ids[i - 1].empty()
               ? std::vector<std::string>{ids[i - 1]}
               : std::vector<std::string>{};
  }
  bool room_for(const BatchJob& job) const {
    const int most = runner.opts_.max_queued;
    return most <= 0 || job.runs.size() > 1 || static_cast<int>(follower.outstanding()) < most;
  }
  bool stopped() const { return sum.stop_signal != 0; }

  void submit_more() {
    // Held jobs go first, in order; while the limit still refuses one, nothing newer goes out.
    while (!stopped() && !held.empty() &&
           runner.submit_job(jobs[held.front().job], client, follower, sum,
                             after_end(held.front().job), &ids[held.front().job],
                             &held.front().recs) != Sent::Held)
      held.pop_front();
    if (!held.empty()) return;
    for (auto& job : retry_jobs)
      if (!stopped()) runner.submit_job(job, client, follower, sum);
    retry_jobs.clear();
    while (!stopped() && next < jobs.size() && room_for(jobs[next])) {
      std::vector<RunRecord> recs;
      if (runner.submit_job(jobs[next], client, follower, sum, after_end(next), &ids[next],
                            &recs) == Sent::Held) {
        held.push_back({next++, std::move(recs)});
        return;
      }
      ++next;
    }
  }

  // Still held when there is nothing left to wait for (or aerun stops following): a failure.
  void fail_held() {
    for (auto& h : held) runner.end_unsent(h.recs, run_status::submit_failed, "", sum);
    held.clear();
  }
};

FailurePolicy BatchRunner::failure_policy() const {
  return FailurePolicy(spec_.rerun, spec_.retry_on, opts_.force, opts_.rerun_failed);
}

std::vector<const PlannedRun*> BatchRunner::runs_to_submit(const std::vector<PlannedRun>& planned,
                                                           JobFollower& follower,
                                                           BatchSummary& sum) const {
  std::vector<const PlannedRun*> todo;
  for (const auto& p : planned) {
    if (auto prev = store_->find_by_key(p.key)) {
      if (stored_run_stands(*prev, failure_policy(), opts_.fresh_session, opts_.session_id,
                            planned_image_digest(spec_, p))) {
        ++(prev->status == run_status::ok ? sum.reused : sum.kept);
        continue;
      }
      if ((prev->status == run_status::pending || prev->status == run_status::running) &&
          !prev->job_id.empty()) {
        out_ << fmt::format("[{}] run {} is already job {} ({}): following it\n", spec_.name,
                            p.key.substr(0, 12), prev->job_id, prev->status);
        follower.add(*prev, &spec_);
        ++sum.followed;
        continue;
      }
      if (prev->status == run_status::running && prev->runner_pid != getpid()) {
        ++sum.busy;
        continue;
      }
    }
    todo.push_back(&p);
  }
  return todo;
}

void BatchRunner::retry_transient_failures(const std::vector<const PlannedRun*>& todo,
                                           Queue& queue) const {
  // A transient failure (failure_policy.hpp) gets another attempt, as a job of its own, while it
  // has retries left: the same policy as local runs.
  std::map<std::string, const PlannedRun*> by_key;
  for (const PlannedRun* p : todo) by_key[p->key] = p;
  auto retries_used = std::make_shared<std::map<std::string, int>>();
  const fs::path dir = fs::absolute(fs::path(opts_.logs_dir)) / spec_.name;
  queue.follower.on_finished([this, &queue, by_key = std::move(by_key), retries_used, dir,
                              policy = failure_policy()](const RunRecord& r) {
    const auto it = by_key.find(r.key);
    if (it == by_key.end() || !policy.retries(r.status)) return;
    int& used = (*retries_used)[r.key];
    if (used >= spec_.retries) return;
    ++used;
    ++queue.sum.retried;
    out_ << fmt::format("[{}] run {} {}: submitting it again (retry {} of {})\n", spec_.name,
                        r.key.substr(0, 12), r.status, used, spec_.retries);
    single_job(*it->second, dir, queue.retry_jobs);
  });
}

BatchSummary BatchRunner::run(const std::vector<PlannedRun>& planned, SchedulerClient& client) {
  if (!store_) throw SystemError("BatchRunner::run needs a store");
  BatchSummary sum;
  sum.planned = static_cast<int>(planned.size());
  JobFollower follower(*store_, client, out_, opts_.follow, exec_);
  const std::vector<const PlannedRun*> todo = runs_to_submit(planned, follower, sum);
  Queue queue(*this, client, follower, sum, plan_jobs(todo, &client));
  for (const BatchJob& j : queue.jobs)
    if (j.parts > 1 && j.part == 0) out_ << fmt::format("[{}] {}\n", spec_.name, j.cut_by);
  retry_transient_failures(todo, queue);
  queue.submit_more();
  if (sum.stop_signal != 0) {
    // Stopped while waiting to submit again: what was submitted stays queued (collect follows it).
  } else if (opts_.wait) {
    sum.stop_signal = follower.follow([&queue] { queue.submit_more(); });
  } else {
    follower.poll_once();  // one look, so jobs that failed at once are reported now
  }
  queue.fail_held();
  for (size_t i = queue.next; i < queue.jobs.size(); ++i)
    sum.not_submitted += static_cast<int>(queue.jobs[i].runs.size());
  sum.ok = follower.summary().ok;
  sum.failed = follower.summary().failed - sum.retried;
  sum.outstanding = static_cast<int>(follower.outstanding());
  if (sum.last_error.empty()) sum.last_error = follower.summary().last_error;
  print_summary(sum);
  return sum;
}

void BatchRunner::print_summary(const BatchSummary& sum) const {
  out_ << fmt::format(
      "[{}] {} planned: {} ok, {} failed, {} submit failed, {} still queued or running, {} reused"
      "{}{}{}{}{}\n",
      spec_.name, sum.planned, sum.ok, sum.failed, sum.submit_failed, sum.outstanding, sum.reused,
      sum.retried ? fmt::format(", {} transient failure(s) retried", sum.retried) : "",
      sum.submit_retries ? fmt::format(", {} submission(s) tried again (the scheduler was busy)",
                                       sum.submit_retries)
                         : "",
      sum.held ? fmt::format(", {} job(s) held back by a per-user limit until earlier ones ended",
                             sum.held)
               : "",
      sum.kept ? fmt::format(", {} failures kept as results (--rerun-failed runs them)", sum.kept)
               : "",
      sum.not_submitted
          ? fmt::format(", {} not submitted yet ({})", sum.not_submitted,
                        sum.stop_signal ? "stopped before their turn" : "--max-queued")
          : "");
}

}  // namespace aerun
