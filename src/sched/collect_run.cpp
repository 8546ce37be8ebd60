// collect_run: a finished batch job's run, from its log, its stamps and the scheduler's verdict.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "aerun/extract/extractor.hpp"
#include "aerun/judge/run_judge.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/sched/job_follower.hpp"
#include "aerun/sched/job_stamps.hpp"
#include "aerun/util/sha256.hpp"

namespace aerun {

namespace {

std::string last_line(const std::string& tail) {
  const size_t end = tail.find_last_not_of("\r\n \t");
  if (end == std::string::npos) return "";
  size_t begin = tail.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  std::string line = tail.substr(begin, end - begin + 1);
  if (line.size() > 300) line = line.substr(0, 300) + "...";
  return line;
}

// The scheduler's own line in the log, e.g. "slurmstepd: error: *** JOB 12 ... DUE TO TIME LIMIT
// ***".
std::string scheduler_line(const std::string& tail) {
  const size_t at = tail.rfind("*** ");
  if (at == std::string::npos) return "";
  const size_t b = tail.rfind('\n', at);
  const size_t e = tail.find('\n', at);
  return tail.substr(
      b == std::string::npos ? 0 : b + 1,
      e == std::string::npos ? std::string::npos : e - (b == std::string::npos ? 0 : b + 1));
}

}  // namespace

void collect_run(RunRecord& r, const RunState& state, const JobReport* report, const CaseSpec* spec,
                 const Extractor* blank) {
  const JobStamps st = read_job_stamps(stamps_path(r.log_path));
  std::unique_ptr<Extractor> ex;
  if (spec) ex = std::make_unique<Extractor>(blank ? blank->fresh() : Extractor(*spec));
  Sha256 hash;
  std::string tail;
  r.log_size = 0;
  if (std::ifstream in{r.log_path, std::ios::binary}) {
    std::string buf(1 << 20, '\0');
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
      const std::string_view chunk(buf.data(), static_cast<size_t>(in.gcount()));
      hash.update(chunk);
      if (ex) ex->feed(chunk);
      tail.append(chunk.substr(chunk.size() > 8192 ? chunk.size() - 8192 : 0));
      if (tail.size() > 8192) tail.erase(0, tail.size() - 8192);
      r.log_size += static_cast<long long>(chunk.size());
    }
    r.log_sha256 = hash.hex();
  }
  RunEvidence ev;
  if (ex) {
    ex->finish();
    r.metrics = ex->metrics();
    r.series = ex->series();
    r.warnings = ex->warnings();
    ex->describe(ev);
  }

  // Times: the job's own stamps first, the scheduler's otherwise.
  r.job_start_time = st.start ? st.start : report ? report->start_time : std::nullopt;
  r.launch_time = r.job_start_time;
  r.first_output_time = st.first_output;
  r.startup_time = st.first_step;
  r.end_time = st.end ? st.end : report && report->end_time ? report->end_time : wall_now();
  if (r.job_start_time && r.submit_time) r.queue_wait_s = *r.job_start_time - *r.submit_time;
  if (r.launch_time) {
    r.wall_s = *r.end_time - *r.launch_time;
    if (r.startup_time) r.startup_s = *r.startup_time - *r.launch_time;
  }
  if (!st.host.empty()) r.host = r.nodes = st.host;  // the scheduler's node list, when given, wins
  r.exit_code = st.exit_code ? st.exit_code : report ? report->exit_code : std::nullopt;
  if (!st.exit_code && report && report->signal) r.signal = report->signal;

  // Status: one judge for every run, from the job's exit, the scheduler's verdict and the log.
  ev.exit_code = r.exit_code;
  ev.signal = r.signal;
  ev.stall_s = st.stall_s;  // the job's own watchdogs (aerun stamp-output)
  ev.stall_line = st.stall_line;
  ev.stall_line_no = st.stall_line_no;
  ev.first_step_s = st.first_step_s;
  if (state.finished) {
    ev.scheduler_status = state.status;
    const std::string sched_line = scheduler_line(tail);
    ev.scheduler_text = !sched_line.empty() ? sched_line
                        : report && !report->reason.empty()
                            ? fmt::format("{} ({})", report->state, report->reason)
                        : report           ? report->state
                        : r.reason.empty() ? state.status
                                           : r.reason;
  }
  if (ev.last_line.empty()) ev.last_line = last_line(tail);
  const Verdict v = judge_run(ev);
  r.status = v.status;
  r.reason = v.reason;
  if (report) {
    r.scheduler_state = report->state;
    r.scheduler_reason = report->reason;
    if (!report->nodes.empty()) r.nodes = report->nodes;
    if (report->max_rss_kb) r.max_rss_kb = *report->max_rss_kb;  // the scheduler's accounting
  }
}

}  // namespace aerun
