// The one judge of a run's final status: see run_judge.hpp and docs/presets.md.
#include "aerun/judge/run_judge.hpp"

#include <fmt/format.h>
#include <string.h>

#include <algorithm>
#include <cmath>

#include "aerun/judge/run_status.hpp"

namespace aerun {

namespace {

// A status that stops a run from outside: what the log shows after it is its consequence.
bool external_stop(const std::string& s) {
  return s == run_status::timeout || s == run_status::cancelled || s == run_status::interrupted ||
         s == run_status::node_failure;
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

std::string with_last_line(std::string reason, const std::string& last_line) {
  if (!last_line.empty()) reason += ": " + last_line;
  return reason;
}

std::string count_text(double v) {
  return std::isfinite(v) && std::fabs(v) < 1e15 ? fmt::format("{}", static_cast<long long>(v))
                                                 : fmt::format("{:g}", v);
}

// The failure evidence that stands: status lines not superseded by later progress or an end line
// (when the run may have gone on after them), cut at the first external stop.
std::vector<const LogHit*> standing_hits(const RunEvidence& e) {
  std::vector<const LogHit*> hits;
  for (const auto& h : e.hits) {
    const bool superseded = h.progress_after >= 2 || (e.end_line > h.line_no);
    if (!superseded) hits.push_back(&h);
  }
  std::sort(hits.begin(), hits.end(),
            [](const LogHit* a, const LogHit* b) { return a->line_no < b->line_no; });
  for (size_t i = 0; i < hits.size(); ++i)
    if (external_stop(hits[i]->status)) {
      hits.resize(i + 1);
      break;
    }
  return hits;
}

}  // namespace

int status_rank(const std::string& s) {
  const run_status::Info* i = run_status::find(s);
  return static_cast<int>(i ? i->rank : run_status::Rank::RootCause);  // the case's own: causes
}

Verdict judge_run(const RunEvidence& e) {
  // 1. What aerun itself knows.
  if (!e.start_error.empty()) return {run_status::failed, e.start_error};
  if (e.stopped)
    return {run_status::interrupted,
            "stopped by " + (e.stop_signal.empty() ? "SIGINT" : e.stop_signal)};
  if (e.timeout_s > 0)
    return {run_status::timeout, fmt::format("timeout after {:g} s", e.timeout_s)};
  if (e.stall_s > 0)
    return {run_status::stalled, fmt::format("no progress for {:g} s after line {}: {}", e.stall_s,
                                             e.stall_line_no, e.stall_line)};
  if (e.first_step_s > 0)
    return {run_status::startup_timeout,
            fmt::format("no first step within {:g} s of the start", e.first_step_s)};
  if (!e.write_error.empty()) return {run_status::failed, e.write_error};

  const bool sched_failed = !e.scheduler_status.empty() && e.scheduler_status != run_status::ok;
  const bool exit_failed = (e.exit_code && *e.exit_code != 0) || e.signal.has_value();
  const bool counter_done =
      e.counter_done && e.counter_planned && *e.counter_done >= *e.counter_planned;
  const bool finished = e.end_line > 0 || counter_done;

  // 2. Status lines of the log and the scheduler's verdict: the best ranked, earliest first.
  const std::vector<const LogHit*> hits = standing_hits(e);
  const LogHit* best = nullptr;
  for (const LogHit* h : hits)
    if (!best || status_rank(h->status) > status_rank(best->status)) best = h;
  // Training finished and nothing says the process failed: what the log shows after the end (a
  // traceback at teardown) does not undo the results.
  if (best && finished && !exit_failed && !sched_failed)
    return {run_status::ok,
            fmt::format("finished (line {}); then line {}: {}",
                        e.end_line > 0 ? e.end_line : e.counter_line, best->line_no, best->line)};
  if (sched_failed) {
    const bool log_stopped_first = best && external_stop(hits.back()->status);
    const bool generic = e.scheduler_status == run_status::failed && (e.exit_code || e.signal);
    if (!log_stopped_first && !generic &&
        (!best || status_rank(e.scheduler_status) > status_rank(best->status)))
      return {e.scheduler_status, e.scheduler_text.empty() ? e.scheduler_status : e.scheduler_text};
  }
  if (best) return {best->status, fmt::format("line {}: {}", best->line_no, best->line)};

  // 3. How the process ended.
  if (e.signal) return {run_status::failed, "killed by " + signal_name(*e.signal)};
  if (exit_failed)
    return {run_status::failed,
            with_last_line(fmt::format("exit code {}", *e.exit_code), e.last_line)};

  // 4. Ended cleanly, or nobody knows how it ended.
  if (e.progress_expected && e.progress_lines == 0)
    return {run_status::no_progress, "no iteration or step line in the log"};
  const bool exit_known = e.exit_code.has_value() || e.scheduler_status == run_status::ok;
  if (exit_known) return {run_status::ok, ""};
  if (finished) return {run_status::ok, ""};
  if (e.assume_complete) {
    std::string why = "completion assumed (--assume-complete)";
    if (e.counter_done && e.counter_planned)
      why += fmt::format("; the log stops at {} of {}", count_text(*e.counter_done),
                         count_text(*e.counter_planned));
    return {run_status::ok, why};
  }
  if (e.counter_done && e.counter_planned)
    return {
        run_status::incomplete,
        fmt::format("the log stops at {} of {} (line {}) with no end line",
                    count_text(*e.counter_done), count_text(*e.counter_planned), e.counter_line)};
  if (!e.completion_configured)
    return {run_status::incomplete,
            "exit code unknown and no completion pattern to prove the run finished (add "
            "`completion:` to the case)"};
  return {run_status::incomplete,
          with_last_line("exit code unknown and no end-of-training line", e.last_line)};
}

}  // namespace aerun
