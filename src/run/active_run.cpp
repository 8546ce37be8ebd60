#include "run/active_run.hpp"
#include "aerun/run/run_directory.hpp"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "aerun/run/provenance.hpp"
#include "aerun/util/created_file.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

namespace {

// After the command ended, how long something it started may keep its output open.
constexpr double kOrphanOutputGraceS = 2.0;

}  // namespace

ActiveRun::ActiveRun(const CaseSpec& spec, const PlannedRun& plan, RunRecord rec, Executor& exec,
                     const Extractor* blank)
    : spec_(spec), plan_(&plan), rec_(std::move(rec)), exec_(exec), blank_(blank) {}

void ActiveRun::start(const std::vector<std::string>& env) {
  start_mono_ = exec_.mono_now();
  try {
    worker_ = std::make_unique<ExtractionWorker>(
        std::make_unique<Extractor>(blank_ ? blank_->fresh() : Extractor(spec_)),
        exec_.threaded_extraction());
    // Its own directory first: the log is written there.
    if (!rec_.rundir.empty()) prepare_run_directory(spec_, rec_.rundir);
    // Never through a link or a FIFO put at the log's path, nor at logs/ or logs/<case> since
    // they were made (issue 40): a log outside a run directory is in those two folders of aerun's.
    log_ = create_own_file(rec_.log_path, rec_.rundir.empty() ? 2 : 0, CreateMode::Truncate, 0644,
                           "log");
    ChildProcess::Options o;
    // The system's set-up lines first (`--system`), then the run's command: the key is the
    // command's, the set-up the machine's.
    std::string setup;
    for (const std::string& line : spec_.system_setup) setup += line + "\n";
    o.argv = {spec_.shell, "-c", setup + plan_->command};
    o.env = env;
    o.cwd = rec_.rundir.empty() ? spec_.workdir : rec_.rundir;
    rec_.launch_time = exec_.wall_now();
    start_mono_ = exec_.mono_now();
    child_ = exec_.spawn(o);
  } catch (const std::exception& e) {
    start_error_ = e.what();
    eof_ = true;
    return;
  }
  if (spec_.timeout_s > 0) deadline_mono_ = start_mono_ + spec_.timeout_s;
}

int ActiveRun::output_fd() const {
  // While extraction is far behind, the pipe is left alone (memory stays bounded).
  if (worker_ && worker_->full()) return -1;
  return !eof_ && child_ ? child_->output_fd() : -1;
}

void ActiveRun::note_end() {
  if (ended_mono_ > 0 || !eof_ || (child_ && !child_->exited())) return;
  ended_mono_ = exec_.mono_now();
  ended_wall_ = exec_.wall_now();
}

void ActiveRun::write_log(std::string_view chunk) {
  if (log_.get() < 0 || !write_error_.empty()) return;
  size_t off = 0;
  while (off < chunk.size()) {
    const ssize_t w = ::write(log_.get(), chunk.data() + off, chunk.size() - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      write_error_ = fmt::format("cannot write log {}: {}", rec_.log_path, strerror(errno));
      return;
    }
    off += static_cast<size_t>(w);
  }
  log_hash_.update(chunk);
  log_bytes_ += static_cast<long long>(chunk.size());
}

void ActiveRun::read_output(std::vector<char>& buf) {
  if (output_fd() < 0) return;
  for (;;) {
    const ssize_t n = ::read(child_->output_fd(), buf.data(), buf.size());
    if (n > 0) {
      const double t = exec_.wall_now();
      if (!rec_.first_output_time) rec_.first_output_time = t;
      const std::string_view chunk(buf.data(), static_cast<size_t>(n));
      write_log(chunk);
      worker_->push(chunk, t, exec_.mono_now());
      if (worker_->full()) return;  // read again once extraction caught up
      continue;
    }
    if (n == 0) {
      eof_ = true;
      child_->close_output();
      note_end();
    } else if (errno == EINTR) {
      continue;
    }
    return;  // EAGAIN or EOF
  }
}

double ActiveRun::watchdog_at() const {
  double at = 0;
  auto sooner = [&at](double t) { at = at == 0 ? t : std::min(at, t); };
  if (plan_->stall_s > 0 && seen_.progress_lines > 0)
    sooner(seen_.last_progress_mono + plan_->stall_s);
  if (plan_->first_step_s > 0 && worker_ && !seen_.startup_seen)
    sooner(start_mono_ + plan_->first_step_s);
  return at;
}

void ActiveRun::tick(double now, double kill_grace_s) {
  if (!child_) return;
  if (worker_) {
    worker_->drain_wake();
    seen_ = worker_->progress();
  }
  if (!child_->exited() && child_->try_wait()) {
    exited_mono_ = now;
    exited_wall_ = exec_.wall_now();
  }
  note_end();
  if (!child_->exited()) {
    const double watchdog = stopping() ? 0 : watchdog_at();
    if (deadline_mono_ > 0 && now >= deadline_mono_ && !stopping()) {
      timed_out_ = true;
      child_->signal_group(SIGTERM);
      kill_at_mono_ = now + kill_grace_s;
    } else if (watchdog > 0 && now >= watchdog) {
      // The whole process group: a stuck rank holds its collective for every other one.
      if (plan_->stall_s > 0 && seen_.progress_lines > 0 &&
          now >= seen_.last_progress_mono + plan_->stall_s) {
        stalled_ = true;
        stall_line_ = seen_.last_progress_text;
        stall_line_no_ = seen_.last_progress_line;
      } else {
        startup_timed_out_ = true;
      }
      child_->signal_group(SIGTERM);
      kill_at_mono_ = now + kill_grace_s;
    } else if (kill_at_mono_ > 0 && now >= kill_at_mono_) {
      child_->signal_group(SIGKILL);
      kill_at_mono_ = now + 1.0;
    }
  } else if (!eof_ && now - exited_mono_ >= kOrphanOutputGraceS) {
    // The command ended but something it started still holds the output open: its group is
    // stopped; what left the group (setsid, a daemon) is said (issue 40), and the run's times
    // end when the command did, not after this wait.
    left_running_ = child_->output_holders();
    child_->signal_group(SIGKILL);
    eof_ = true;
    child_->close_output();
    ended_mono_ = exited_mono_;
    ended_wall_ = exited_wall_;
  }
}

void ActiveRun::interrupt(double now, double kill_grace_s, std::string signal_name) {
  stop_signal_ = std::move(signal_name);
  if (child_) child_->signal_group(SIGTERM);
  kill_at_mono_ = now + kill_grace_s;
}

double ActiveRun::next_wake(double later) const {
  double wake = later;
  if (done()) return 0;  // nothing to wait for: finish it now
  // Once stopped, the kill grace decides, not the timeout (else the loop spins until it ends).
  if (deadline_mono_ > 0 && !stopping()) wake = std::min(wake, deadline_mono_);
  if (const double w = stopping() ? 0 : watchdog_at(); w > 0) wake = std::min(wake, w);
  if (kill_at_mono_ > 0) wake = std::min(wake, kill_at_mono_);
  if (exited_mono_ > 0 && !eof_) wake = std::min(wake, exited_mono_ + kOrphanOutputGraceS);
  // Output ended (or the pipe is left alone while extraction is behind): look again soon.
  if (worker_ && (eof_ || worker_->full()) && !worker_->caught_up())
    wake = std::min(wake, exec_.mono_now() + 0.02);
  return wake;
}

std::string ActiveRun::live_progress() const {
  if (!worker_) return "";
  const auto c = worker_->progress().counter;
  if (!c || c->second <= 0) return "";
  const auto [done, total] = *c;
  std::string out =
      fmt::format("iteration {:.0f}/{:.0f} ({:.0f}%)", done, total, 100 * done / total);
  const double elapsed = exec_.mono_now() - start_mono_;
  if (done > 0 && elapsed > 0) {
    const long long eta = static_cast<long long>((total - done) * elapsed / done);
    out += fmt::format(", {:.3g}/s, ETA {}:{:02}", done / elapsed, eta / 60, eta % 60);
  }
  return out;
}

int ActiveRun::crossed_tenth() {
  if (!worker_) return -1;
  const auto c = worker_->progress().counter;
  if (!c || c->second <= 0) return -1;
  const int tenth = static_cast<int>(std::min(10.0, 10 * c->first / c->second));
  if (tenth <= tenth_reported_) return -1;
  tenth_reported_ = tenth;
  return tenth;
}

bool ActiveRun::done() const {
  return (!child_ || child_->exited()) && eof_ && (!worker_ || worker_->caught_up());
}

RunEvidence ActiveRun::evidence() const {
  RunEvidence ev;
  if (extractor_) extractor_->describe(ev);
  ev.start_error = start_error_;
  ev.write_error = write_error_;
  ev.stopped = !stop_signal_.empty();
  ev.stop_signal = stop_signal_;
  if (timed_out_) ev.timeout_s = spec_.timeout_s;
  if (stalled_) {
    ev.stall_s = plan_->stall_s;
    ev.stall_line = stall_line_;
    ev.stall_line_no = stall_line_no_;
  }
  if (startup_timed_out_) ev.first_step_s = plan_->first_step_s;
  ev.exit_code = rec_.exit_code;
  ev.signal = rec_.signal;
  return ev;
}

RunRecord ActiveRun::finish() {
  RunRecord& r = rec_;
  if (worker_) {
    extractor_ = &worker_->finish();
    r.startup_time = worker_->progress().startup_time;
  }
  // The command's times end when it had exited and its output ended, not when extraction did.
  note_end();
  r.end_time = ended_wall_ > 0 ? ended_wall_ : exec_.wall_now();
  r.wall_s = (ended_mono_ > 0 ? ended_mono_ : exec_.mono_now()) - start_mono_;
  if (child_ && child_->exited()) {
    const auto& e = child_->exit();
    r.exit_code = e.code;
    r.signal = e.signal;
    r.user_cpu_s = e.user_cpu_s;
    r.sys_cpu_s = e.sys_cpu_s;
    r.max_rss_kb = e.max_rss_kb;
  }
  if (extractor_) {
    r.metrics = extractor_->metrics();
    r.series = extractor_->series();
    r.warnings = extractor_->warnings();
  }
  if (!left_running_.empty())
    r.warnings.push_back(fmt::format(
        "left {} process(es) running (pid {}): started by the command outside its process group "
        "(setsid, a daemon), still holding its output {:g} s after it ended; aerun stopped "
        "reading there",
        left_running_.size(), fmt::join(left_running_, ", "), kOrphanOutputGraceS));
  const Verdict v = judge_run(evidence());
  r.status = v.status;
  r.reason = v.reason;
  if (log_.get() >= 0) {
    // The size is what the command wrote (the digest is of the same bytes); a log deleted or
    // replaced under the run is said, not stored as size -1 beside a digest of nothing there.
    struct stat held {
    }, named{};
    const bool same = ::fstat(log_.get(), &held) == 0 && ::stat(r.log_path.c_str(), &named) == 0 &&
                      held.st_dev == named.st_dev && held.st_ino == named.st_ino;
    if (!same)
      r.warnings.push_back(fmt::format(
          "the log {} was deleted or replaced while the run ran: its size and digest are of the "
          "{} bytes the command wrote, which are no longer there",
          r.log_path, log_bytes_));
    log_.reset();
    r.log_sha256 = log_hash_.hex();
    r.log_size = log_bytes_;
  }
  if (r.launch_time && r.startup_time) r.startup_s = *r.startup_time - *r.launch_time;
  return r;
}

}  // namespace aerun
