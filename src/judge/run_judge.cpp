// The one judge of a run's final status: see run_judge.hpp and docs/presets.md.
#include "aerun/judge/run_judge.hpp"

#include <fmt/format.h>
#include <string.h>

#include <algorithm>
#include <cmath>

#include "aerun/judge/run_status.hpp"
#include "aerun/util/secret_text.hpp"

namespace aerun {

namespace {

// A status that stops a run from outside: what the log shows after it is its consequence.
bool external_stop(const std::string& s) {
  return s == run_status::timeout || s == run_status::cancelled || s == run_status::interrupted ||
         s == run_status::node_failure;
}

// A stop after which the run may start again in the same log: an external stop (a requeued job
// appending to its log) or the launcher's report of a failed worker group. torchrun logs
// "failed (exitcode: N) local_rank: …" at ERROR for every failed group, but its "will restart
// worker group" line at INFO, which its default level (LOGLEVEL=WARNING, torch 2.11) hides: a
// restart then shows only as training going on after the failure line.
bool may_end_attempt(const std::string& s) {
  return external_stop(s) || s == run_status::launcher_failed;
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

// One attempt of the run in the log: its status lines, and how many progress lines the log shows
// after its end (0 for the last attempt).
struct Attempt {
  std::vector<const LogHit*> hits;  // in line order
  long long end_progress_after = 0;
  long long progress = 0;  // progress lines inside it
  long long first_line = 0;
};

bool superseded(const LogHit& h, const Attempt& a, long long end_line) {
  if (h.progress_after - a.end_progress_after >= 2) return true;
  // Finishing does not undo a divergence (a NaN loss printed to the end of training).
  return end_line > h.line_no && h.status != run_status::diverged;
}

// The failure evidence of an attempt that stands: status lines not superseded by later progress
// or an end line (when the run may have gone on after them), cut after the first external stop
// and the external stops right after it (a step's plain cancel, then the job's time limit).
std::vector<const LogHit*> standing_hits(const Attempt& a, long long end_line) {
  std::vector<const LogHit*> hits;
  for (const LogHit* h : a.hits)
    if (!superseded(*h, a, end_line)) hits.push_back(h);
  for (size_t i = 0; i < hits.size(); ++i)
    if (external_stop(hits[i]->status)) {
      size_t keep = i + 1;
      while (keep < hits.size() && external_stop(hits[keep]->status) &&
             hits[keep]->progress_after == hits[i]->progress_after)
        ++keep;
      hits.resize(keep);
      break;
    }
  return hits;
}

// The best ranked of some lines, the earliest among equals.
const LogHit* best_of(const std::vector<const LogHit*>& hits) {
  const LogHit* best = nullptr;
  for (const LogHit* h : hits)
    if (!best || status_rank(h->status) > status_rank(best->status)) best = h;
  return best;
}

// The log cut into attempts: at each AttemptStart, and after each external stop or launcher
// failure that the run went on from (2+ progress lines or the end line after it: a requeued job
// appending to its log, a torchrun restart).
std::vector<Attempt> split_attempts(const RunEvidence& e) {
  std::vector<const LogHit*> hits;
  for (const auto& h : e.hits) hits.push_back(&h);
  std::stable_sort(hits.begin(), hits.end(),
                   [](const LogHit* a, const LogHit* b) { return a->line_no < b->line_no; });
  std::vector<Attempt> out(1);
  long long start_progress_after = e.progress_lines;  // of the attempt being built
  size_t next_start = 0;
  auto close = [&](long long end_progress_after, long long next_first_line) {
    out.back().end_progress_after = end_progress_after;
    out.back().progress = start_progress_after - end_progress_after;
    start_progress_after = end_progress_after;
    out.push_back({});
    out.back().first_line = next_first_line;
  };
  for (const LogHit* h : hits) {
    while (next_start < e.attempts.size() && e.attempts[next_start].line_no <= h->line_no) {
      close(e.attempts[next_start].progress_after, e.attempts[next_start].line_no);
      ++next_start;
    }
    out.back().hits.push_back(h);
    if (may_end_attempt(h->status)) {
      // The run went on from the stop: was it this attempt's end? (The explicit starts after it
      // decide otherwise.)
      const long long limit =
          next_start < e.attempts.size() ? e.attempts[next_start].progress_after : 0;
      const bool went_on = h->progress_after - limit >= 2 ||
                           (next_start == e.attempts.size() && e.end_line > h->line_no);
      if (went_on) close(h->progress_after, h->line_no + 1);
    }
  }
  for (; next_start < e.attempts.size(); ++next_start)
    close(e.attempts[next_start].progress_after, e.attempts[next_start].line_no);
  out.back().end_progress_after = 0;
  out.back().progress = start_progress_after;
  // Attempts that neither progressed nor stopped (a resume banner at the first start) are none.
  std::vector<Attempt> kept;
  for (size_t i = 0; i + 1 < out.size(); ++i)
    if (out[i].progress > 0 || !out[i].hits.empty()) kept.push_back(std::move(out[i]));
  kept.push_back(std::move(out.back()));
  return kept;
}

// "; 2 earlier attempts: timeout (line 120), interrupted (line 340)" (the last five named).
std::string earlier_attempts_text(const std::vector<Attempt>& attempts) {
  const size_t n = attempts.size() - 1;
  if (n == 0) return "";
  std::string out = fmt::format("; {} earlier attempt{}: ", n, n == 1 ? "" : "s");
  const size_t from = n > 5 ? n - 5 : 0;
  if (from > 0) out += "..., ";
  for (size_t i = from; i < n; ++i) {
    const LogHit* stop = best_of(standing_hits(attempts[i], 0));
    if (i > from) out += ", ";
    out += stop ? fmt::format("{} (line {})", stop->status, stop->line_no)
                : fmt::format("restarted (line {})", attempts[i + 1].first_line);
  }
  return out;
}

// Steps 2 to 4 of judge_run, on the last attempt of the log.
Verdict judge_last_attempt(const RunEvidence& e, const Attempt& last) {
  const bool sched_failed = !e.scheduler_status.empty() && e.scheduler_status != run_status::ok;
  const bool exit_failed = (e.exit_code && *e.exit_code != 0) || e.signal.has_value();
  const bool counter_done =
      e.counter_done && e.counter_planned && *e.counter_done >= *e.counter_planned;
  const bool finished = e.end_line > 0 || counter_done;
  const long long finish_line = e.end_line > 0 ? e.end_line : e.counter_line;

  const std::vector<const LogHit*> hits = standing_hits(last, e.end_line);
  const LogHit* best = best_of(hits);
  // Training finished and only lines after the end say otherwise (a traceback, NCCL or the
  // launcher at teardown, and the exit code they caused): the results stand. Not when the
  // scheduler names a cause, nor for a divergence.
  const bool diverged = best && best->status == run_status::diverged;
  const bool teardown_only = std::all_of(hits.begin(), hits.end(), [&](const LogHit* h) {
    return h->line_no > finish_line &&
           (h->status == run_status::failed || h->status == run_status::launcher_failed ||
            h->status == run_status::comm_error);
  });
  if (best && finished && !diverged && !sched_failed && (!exit_failed || teardown_only))
    return {run_status::ok,
            fmt::format("finished (line {}); then line {}: {}{}", finish_line, best->line_no,
                        best->line,
                        !exit_failed  ? ""
                        : e.exit_code ? fmt::format(" (exit code {})", *e.exit_code)
                                      : " (killed by " + signal_name(*e.signal) + ")")};
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
  if (e.format_unknown && e.progress_lines == 0)
    return {run_status::unknown_format,
            fmt::format("no line of a format aerun reads ({}): no signature or progress line; "
                        "give the case a preset or a progress metric for this log",
                        e.formats.empty() ? "none" : e.formats)};
  // (An end-of-training line without progress lines: a run that logged less often than it ran.)
  if (e.progress_expected && e.progress_lines == 0 && !finished)
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

}  // namespace

int status_rank(const std::string& s) {
  const run_status::Info* i = run_status::find(s);
  return static_cast<int>(i ? i->rank : run_status::Rank::RootCause);  // the case's own: causes
}

namespace {

Verdict judge(const RunEvidence& e) {
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

  // 2. Status lines of the log and the scheduler's verdict, in the last attempt: the best
  // ranked, earliest first.
  const std::vector<Attempt> attempts = split_attempts(e);
  const std::string earlier = earlier_attempts_text(attempts);
  Verdict v = judge_last_attempt(e, attempts.back());
  v.reason += v.reason.empty() && !earlier.empty() ? earlier.substr(2) : earlier;
  return v;
}

}  // namespace

// A reason quotes a log's line: a secret in it (`token=X`, an Authorization header) is redacted
// before it is stored and shown (issue 40); the log keeps the line.
Verdict judge_run(const RunEvidence& e) {
  Verdict v = judge(e);
  v.reason = redacted_log_text(v.reason);
  return v;
}

}  // namespace aerun
