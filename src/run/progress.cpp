#include "run/progress.hpp"

#include <fmt/format.h>

#include <ostream>

#include "aerun/judge/run_status.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/util/terminal_text.hpp"

namespace aerun {

Progress::Progress(std::ostream& out, bool tty, std::string case_name, long long planned)
    : out_(out),
      tty_(tty),
      case_(std::move(case_name)),
      planned_(planned),
      started_at_(mono_now()) {}

void Progress::clear_line() {
  if (tty_ && line_shown_) terminal_control(out_, "\r\033[K");
  line_shown_ = false;
}

void Progress::note(const std::string& text) {
  clear_line();
  out_ << "[aerun] " << text << "\n";
  out_.flush();
  if (tty_) redraw();
}

void Progress::reused() {
  ++reused_;
  ++finished_;
}

void Progress::started(const RunRecord& r) {
  ++running_;
  if (tty_) return redraw();
  out_ << fmt::format("[aerun] start {} {} repeat={} attempt={} key={}\n", case_,
                      describe_params(r.params), r.repeat_index, r.attempt, r.key.substr(0, 12));
  out_.flush();
}

void Progress::finished(const RunRecord& r, bool will_retry) {
  --running_;
  if (!will_retry) ++finished_;
  if (r.status != run_status::ok && !will_retry) ++failed_;
  if (r.wall_s) {
    run_seconds_ += *r.wall_s;
    ++runs_timed_;
  }
  clear_line();
  std::string line = fmt::format("[aerun] {:<7} {} repeat={} ({:.2f} s)", r.status,
                                 describe_params(r.params), r.repeat_index, r.wall_s.value_or(0));
  if (r.status != run_status::ok) line += fmt::format(": {}", r.reason);
  if (will_retry) line += " (retrying)";
  if (tty_ && r.status == run_status::ok) {
    redraw();  // on a terminal, successes only move the progress line
    return;
  }
  out_ << line << "\n";
  out_.flush();
  if (tty_) redraw();
}

void Progress::tick(int running, const std::string& live) {
  running_ = running;
  live_ = live;
  if (tty_) redraw();
}

void Progress::redraw() {
  const long long remaining = planned_ - finished_;
  std::string eta = "?";
  if (runs_timed_ > 0) {
    const double per_run = run_seconds_ / runs_timed_;
    const int par = std::max(1, running_);
    const long long s = static_cast<long long>(per_run * static_cast<double>(remaining) / par);
    eta = fmt::format("{}:{:02}", s / 60, s % 60);
  }
  terminal_control(out_, "\r\033[K");  // aerun's own sequence: past the terminal filter
  out_ << fmt::format("[aerun] {}: {}/{} done, {} failed, {} running, ETA {}{}", case_, finished_,
                      planned_, failed_, running_, eta, live_.empty() ? "" : " | " + live_);
  out_.flush();
  line_shown_ = true;
}

void Progress::done(const RunSummary& s) {
  clear_line();
  out_ << fmt::format(
      "[aerun] {}: {} ok, {} failed, {} reused, {}{} interrupted{}{} ({:.1f} s)\n", case_, s.ok,
      s.failed, s.reused, s.kept ? fmt::format("{} failures kept, ", s.kept) : "", s.interrupted,
      s.not_started ? fmt::format(", {} not started", s.not_started) : "",
      s.busy ? fmt::format(", {} left to another aerun", s.busy) : "", mono_now() - started_at_);
  out_.flush();
}

}  // namespace aerun
