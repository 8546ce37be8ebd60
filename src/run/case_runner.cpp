#include "aerun/case_runner.hpp"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <memory>
#include <ostream>
#include <unordered_map>

#include "aerun/child_process.hpp"
#include "aerun/error.hpp"
#include "aerun/extractor.hpp"
#include "aerun/gpu_lock.hpp"
#include "aerun/provenance.hpp"
#include "aerun/run_judge.hpp"
#include "aerun/sha256.hpp"
#include "aerun/signal_watch.hpp"
#include "aerun/store.hpp"
#include "aerun/unique_fd.hpp"
#include "run/progress.hpp"

extern char** environ;

namespace aerun {

namespace fs = std::filesystem;

namespace {

// A run in flight: its process, its log, and what has been seen of its output so far.
struct ActiveRun {
  const PlannedRun* plan = nullptr;
  RunRecord rec;
  std::unique_ptr<ChildProcess> child;
  UniqueFd log;
  Sha256 log_hash;
  std::unique_ptr<Extractor> extractor;
  double start_mono = 0;
  double deadline_mono = 0;  // 0 = none
  double kill_at_mono = 0;   // when SIGKILL follows a SIGTERM (0 = not yet asked to stop)
  double exited_mono = 0;    // when the child was reaped
  bool eof = false;
  bool timed_out = false;
  bool interrupted = false;
  std::string write_error;
  std::string start_error;  // could not start: no log file, no shell, ...
};

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

std::vector<std::string> child_environment(const CaseSpec& spec, const PlannedRun& plan,
                                           const RunnerOptions& opts) {
  std::vector<std::string> env;
  auto set = [&env](const std::string& name, const std::string& value) {
    const std::string prefix = name + "=";
    for (auto& e : env)
      if (e.compare(0, prefix.size(), prefix) == 0) {
        e = prefix + value;
        return;
      }
    env.push_back(prefix + value);
  };
  for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
  for (const auto& e : opts.env) {
    const auto eq = e.find('=');
    if (eq != std::string::npos) set(e.substr(0, eq), e.substr(eq + 1));
  }
  for (const auto& e : plan.env) {  // the point's own rendezvous variables
    const auto eq = e.find('=');
    if (eq != std::string::npos) set(e.substr(0, eq), e.substr(eq + 1));
  }
  set("AERUN_CASE", spec.name);
  set("AERUN_RUN_KEY", plan.key);
  set("AERUN_REPEAT", std::to_string(plan.repeat_index));
  for (const auto& [name, value] : spec.env) set(name, value.text());
  return env;
}

}  // namespace

CaseRunner::CaseRunner(const CaseSpec& spec, Store& store, RunnerOptions opts, std::ostream& out)
    : spec_(spec), store_(store), opts_(std::move(opts)), out_(out) {}

RunSummary CaseRunner::run(const std::vector<PlannedRun>& planned) {
  RunSummary sum;
  sum.planned = static_cast<int>(planned.size());
  const std::string host = host_name();
  const std::string commit = git_commit(spec_.workdir);
  const int jobs = spec_.exclusive_gpu ? 1 : std::max(1, opts_.jobs);
  Progress progress(out_, opts_.tty, spec_.name, sum.planned);

  store_.reap_orphans(host);

  // What is left to do: runs not yet succeeded (or all with --force), each with its attempt count.
  struct Todo {
    const PlannedRun* plan;
    int attempts_left;
  };
  std::deque<Todo> queue;
  for (const auto& p : planned) {
    if (auto prev = store_.find_by_key(p.key)) {
      if (prev->status == "ok" && !opts_.force) {
        ++sum.reused;
        progress.reused();
        continue;
      }
      if (prev->status == "running" && prev->runner_pid != getpid()) {
        ++sum.busy;
        progress.note(fmt::format("run {} is being run by aerun process {} on {}; skipped",
                                  p.key.substr(0, 12), prev->runner_pid, prev->host));
        continue;
      }
    }
    queue.push_back({&p, spec_.retries + 1});
  }

  SignalWatch signals;
  GpuLock gpu_lock;
  std::vector<std::unique_ptr<ActiveRun>> active;
  const fs::path case_logs = fs::absolute(fs::path(opts_.logs_dir)) / spec_.name;
  std::error_code ec;
  fs::create_directories(case_logs, ec);
  if (ec) throw SystemError(fmt::format("cannot create {}: {}", case_logs.string(), ec.message()));

  auto finish = [&](ActiveRun& a, int left_after) -> bool {  // returns true if it should retry
    RunRecord& r = a.rec;
    if (a.extractor) a.extractor->finish();
    r.end_time = wall_now();
    r.wall_s = mono_now() - a.start_mono;
    if (a.child && a.child->exited()) {
      const auto& e = a.child->exit();
      r.exit_code = e.code;
      r.signal = e.signal;
      r.user_cpu_s = e.user_cpu_s;
      r.sys_cpu_s = e.sys_cpu_s;
      r.max_rss_kb = e.max_rss_kb;
    }
    if (a.extractor) {
      r.metrics = a.extractor->metrics();
      r.series = a.extractor->series();
    }
    // One judge for every run (run_judge.hpp).
    RunEvidence ev;
    if (a.extractor) a.extractor->describe(ev);
    ev.start_error = a.start_error;
    ev.write_error = a.write_error;
    ev.stopped = a.interrupted;
    if (a.interrupted)
      ev.stop_signal = signal_name(signals.stop_signal() ? signals.stop_signal() : SIGINT);
    if (a.timed_out) ev.timeout_s = spec_.timeout_s;
    ev.exit_code = r.exit_code;
    ev.signal = r.signal;
    const Verdict v = judge_run(ev);
    r.status = v.status;
    r.reason = v.reason;
    if (a.log.get() >= 0) {
      a.log.reset();
      r.log_sha256 = a.log_hash.hex();
    }
    if (!r.log_path.empty()) r.log_size = static_cast<long long>(fs::file_size(r.log_path, ec));
    if (r.launch_time) {
      if (r.startup_time) r.startup_s = *r.startup_time - *r.launch_time;
    }
    store_.finish_run(r);
    const bool retry = r.status != "ok" && r.status != "interrupted" && left_after > 0 &&
                       signals.stop_signal() == 0;
    if (r.status == "ok")
      ++sum.ok;
    else if (r.status == "interrupted")
      ++sum.interrupted;
    else if (!retry)
      ++sum.failed;
    progress.finished(r, retry);
    return retry;
  };

  auto start = [&](Todo todo) {
    auto a = std::make_unique<ActiveRun>();
    a->plan = todo.plan;
    RunRecord& r = a->rec;
    const PlannedRun& p = *todo.plan;
    r = new_run_record(spec_, p, host, commit);
    r.status = "running";
    r.launch_time = wall_now();
    const long long id = store_.begin_run(r);
    r.id = id;
    r.attempt = store_.find_by_key(r.key)->attempt;
    r.log_path = (case_logs / fmt::format("{}-a{}.log", r.key.substr(0, 16), r.attempt)).string();
    r.status.clear();
    a->log = UniqueFd(open(r.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    a->start_mono = mono_now();
    if (spec_.timeout_s > 0) a->deadline_mono = a->start_mono + spec_.timeout_s;
    try {
      a->extractor = std::make_unique<Extractor>(spec_);
      if (a->log.get() < 0)
        throw SystemError(fmt::format("cannot write log {}: {}", r.log_path, strerror(errno)));
      ChildProcess::Options o;
      o.argv = {spec_.shell, "-c", p.command};
      o.env = child_environment(spec_, p, opts_);
      o.cwd = spec_.workdir;
      r.launch_time = wall_now();
      a->start_mono = mono_now();
      a->child = std::make_unique<ChildProcess>(o);
      progress.started(r);
    } catch (const std::exception& e) {
      a->start_error = e.what();
      a->eof = true;
      active.push_back(std::move(a));
      return;
    }
    active.push_back(std::move(a));
  };

  std::vector<char> buf(1 << 16);
  std::vector<pollfd> pfds;
  std::unordered_map<const PlannedRun*, int> left;
  for (const auto& t : queue) left[t.plan] = t.attempts_left;

  while (!queue.empty() || !active.empty()) {
    // Launch what fits.
    while (signals.stop_signal() == 0 && !queue.empty() && static_cast<int>(active.size()) < jobs) {
      Todo t = queue.front();
      queue.pop_front();
      if (spec_.exclusive_gpu) {
        const std::string who = fmt::format("pid {}, case {}, host {}", getpid(), spec_.name, host);
        if (!gpu_lock.acquire(GpuLock::default_path(), who, [&](const std::string& holder) {
              progress.note(fmt::format("waiting for the GPU lock {} (held by {})",
                                        GpuLock::default_path(), holder));
            })) {
          signals.drain();
          queue.push_front(t);
          break;
        }
      }
      left[t.plan] -= 1;
      start(t);
    }
    if (active.empty()) break;

    // Wait for output, a signal, or the next deadline.
    pfds.clear();
    pfds.push_back({signals.fd(), POLLIN, 0});
    const double now0 = mono_now();
    double wake = now0 + (opts_.tty ? 0.5 : 5.0);
    for (auto& a : active) {
      if (!a->eof && a->child && a->child->output_fd() >= 0)
        pfds.push_back({a->child->output_fd(), POLLIN, 0});
      if (a->deadline_mono > 0 && !a->timed_out) wake = std::min(wake, a->deadline_mono);
      if (a->kill_at_mono > 0) wake = std::min(wake, a->kill_at_mono);
      if (a->exited_mono > 0 && !a->eof) wake = std::min(wake, a->exited_mono + 2.0);
    }
    const int timeout_ms = std::max(0, static_cast<int>(std::ceil((wake - now0) * 1000)));
    int pr = poll(pfds.data(), pfds.size(), timeout_ms);
    if (pr < 0 && errno != EINTR) throw SystemError(fmt::format("poll: {}", strerror(errno)));

    const int stop_before = signals.stop_signal();
    if (signals.drain() != 0 && stop_before == 0) {
      progress.note(fmt::format("{} received: stopping {} running run(s)",
                                signal_name(signals.stop_signal()), active.size()));
      for (auto& a : active) {
        a->interrupted = true;
        if (a->child) a->child->signal_group(SIGTERM);
        a->kill_at_mono = mono_now() + opts_.kill_grace_s;
      }
      sum.interrupted += static_cast<int>(queue.size());
      queue.clear();
    }

    // Read what the runs wrote.
    for (auto& a : active) {
      if (a->eof || !a->child || a->child->output_fd() < 0) continue;
      for (;;) {
        const ssize_t n = read(a->child->output_fd(), buf.data(), buf.size());
        if (n > 0) {
          const double t = wall_now();
          if (!a->rec.first_output_time) a->rec.first_output_time = t;
          std::string_view chunk(buf.data(), static_cast<size_t>(n));
          if (a->log.get() >= 0 && a->write_error.empty()) {
            size_t off = 0;
            while (off < chunk.size()) {
              const ssize_t w = write(a->log.get(), chunk.data() + off, chunk.size() - off);
              if (w < 0) {
                if (errno == EINTR) continue;
                a->write_error =
                    fmt::format("cannot write log {}: {}", a->rec.log_path, strerror(errno));
                break;
              }
              off += static_cast<size_t>(w);
            }
            a->log_hash.update(chunk);
          }
          const bool seen = a->extractor->startup_seen();
          a->extractor->feed(chunk);
          if (!seen && a->extractor->startup_seen()) a->rec.startup_time = t;
          continue;
        }
        if (n == 0) {
          a->eof = true;
          a->child->close_output();
        } else if (errno == EINTR) {
          continue;
        }
        break;  // EAGAIN or EOF
      }
    }

    // Reap, enforce deadlines, finish.
    const double now = mono_now();
    for (size_t i = 0; i < active.size();) {
      ActiveRun& a = *active[i];
      if (a.child && !a.child->exited() && a.child->try_wait()) a.exited_mono = now;
      if (a.child && !a.child->exited()) {
        if (a.deadline_mono > 0 && now >= a.deadline_mono && !a.timed_out && !a.interrupted) {
          a.timed_out = true;
          a.child->signal_group(SIGTERM);
          a.kill_at_mono = now + opts_.kill_grace_s;
        } else if (a.kill_at_mono > 0 && now >= a.kill_at_mono) {
          a.child->signal_group(SIGKILL);
          a.kill_at_mono = now + 1.0;
        }
      } else if (a.child && !a.eof && now - a.exited_mono >= 2.0) {
        // The command ended but something it started still holds the output open: stop it.
        a.child->signal_group(SIGKILL);
        a.eof = true;
        a.child->close_output();
      }
      const bool done = (!a.child || a.child->exited()) && a.eof;
      if (!done) {
        ++i;
        continue;
      }
      const PlannedRun* plan = a.plan;
      const bool retry = finish(a, left[plan]);
      if (spec_.exclusive_gpu) gpu_lock.release();
      active.erase(active.begin() + static_cast<long>(i));
      if (retry) queue.push_front({plan, left[plan]});
    }
    progress.tick(static_cast<int>(active.size()));
  }
  progress.done(sum.ok, sum.failed, sum.reused, sum.interrupted);
  sum.stop_signal = signals.stop_signal();
  return sum;
}

}  // namespace aerun
