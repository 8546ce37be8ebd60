#include "sched/slurm_client.hpp"

#include <pwd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "aerun/sched/slurm_states.hpp"
#include "aerun/util/captured_command.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) parts.push_back(cur);
  if (!s.empty() && s.back() == sep) parts.emplace_back();
  return parts;
}

std::string join(const std::vector<std::string>& v, char sep) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : std::string(1, sep)) + x;
  return out;
}

// A node list as squeue and sacct print it; "" for none yet ("(null)", "None assigned").
std::string node_list(const std::string& text) {
  return text == "(null)" || text == "None assigned" ? "" : text;
}

// What the state means for the run; a job not ended has no exit code yet (squeue and sacct print
// 0 or 0:0 for it).
void settle(JobReport& j) {
  j.run_state = slurm_run_state(j.state);
  if (!j.run_state.finished) {
    j.exit_code.reset();
    j.signal.reset();
  }
}

}  // namespace

std::optional<double> parse_slurm_time(const std::string& text) {
  tm t{};
  const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &t);
  if (!end || *end) return std::nullopt;
  t.tm_isdst = -1;
  return static_cast<double>(mktime(&t));
}

std::vector<JobReport> parse_squeue(const std::string& out) {
  std::vector<JobReport> jobs;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto f = split(line, '|');
    if (f.size() < 6) continue;
    JobReport j;
    j.job_id = f[0];
    j.state = f[1];
    j.reason = f[2] == "None" ? "" : scheduler_words(f[2]);
    const ExitAndSignal es = parse_slurm_exit_code(f[3]);
    j.exit_code = es.exit_code;
    j.signal = es.signal;
    j.start_time = parse_slurm_time(f[4]);
    j.end_time = parse_slurm_time(f[5]);
    // NodeList (a 7th field; older callers' outputs have 6): empty or "(null)" while pending.
    if (f.size() >= 7) j.nodes = node_list(f[6]);
    settle(j);
    jobs.push_back(std::move(j));
  }
  return jobs;
}

std::string SlurmClient::submit(const std::string& script, const std::string& dir,
                                const JobDeps& after) {
  std::vector<std::string> argv{"sbatch", "--parsable", "--chdir=" + dir};
  // "afterok:1:2,afterany:3": every one must hold (sbatch(1), --dependency).
  std::vector<std::string> deps;
  if (!after.ok.empty()) deps.push_back("afterok:" + join(after.ok, ':'));
  if (!after.any.empty()) deps.push_back("afterany:" + join(after.any, ':'));
  if (!deps.empty()) argv.push_back("--dependency=" + join(deps, ','));
  if (!after.ok.empty())
    argv.push_back("--kill-on-invalid-dep=yes");  // a failed step cancels, never strands, its runs
  argv.push_back(script);
  const auto r = run_captured(argv);
  if (!r.ok()) throw SchedulerError("sbatch rejected the job: " + r.message());
  std::string id = r.out.substr(0, r.out.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw SchedulerError("sbatch printed no job id: " + r.message());
  return id;
}

QueryResult SlurmClient::query(const std::vector<std::string>& job_ids) {
  QueryResult q;
  if (job_ids.empty()) {
    q.ok = true;
    return q;
  }
  const auto r = run_captured({"squeue", "--noheader", "--array", "--states=all",
                               "--jobs=" + join(job_ids, ','),
                               "--Format=JobArrayID:|,State:|,Reason:|,exit_code:|,"
                               "StartTime:|,EndTime:|,NodeList:|"});
  if (!r.ok()) {
    // Every id unknown (finished longer ago than MinJobAge): a valid answer, no job left.
    if (r.started && r.err.find("Invalid job id specified") != std::string::npos) {
      q.ok = true;
      return q;
    }
    q.error = "squeue failed: " + r.message();
    return q;
  }
  q.ok = true;
  q.jobs = parse_squeue(r.out);
  return q;
}

void SlurmClient::cancel(const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return;
  std::vector<std::string> argv{"scancel"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  const auto r = run_captured(argv);
  if (!r.ok()) throw SchedulerError("scancel failed: " + r.message());
}

bool SlurmClient::transient(const std::string& message) const {
  for (const char* words :
       {"Socket timed out on send/recv operation", "Unable to contact slurm controller",
        "Communication connection failure", "Message send failure", "Message receive failure",
        "Zero Bytes were transmitted or received", "Resource temporarily unavailable",
        "Slurm temporarily unable to accept job", "Slurm job queue full",
        "Slurm backup controller in standby mode", "Controller is in standby mode"})
    if (message.find(words) != std::string::npos) return true;
  return false;
}

Refusal SlurmClient::refusal(const std::string& message) const {
  if (message.find("Invalid job array specification") != std::string::npos)
    return Refusal::ArrayTooLarge;
  if (message.find("Job violates accounting/QOS policy") != std::string::npos)
    return Refusal::QueueLimit;
  return Refusal::Other;
}

std::optional<std::string> SlurmClient::find_job(const std::string& name) {
  const auto r = run_captured(
      {"squeue", "--me", "--noheader", "--states=all", "--name=" + name, "--Format=ArrayJobID:|"});
  if (!r.ok()) return std::nullopt;
  std::string id = r.out.substr(0, r.out.find_first_of("|\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return id;
}

ArrayLimit SlurmClient::array_limit(const std::string& queue) {
  (void)queue;  // one MaxArraySize for every partition
  if (limit_) return *limit_;
  limit_.emplace();
  const auto r = run_captured({"scontrol", "show", "config"});
  if (!r.ok()) return *limit_;
  if (const auto n = setting_number(r.out, "MaxArraySize"))
    *limit_ = {static_cast<int>(*n),
               fmt::format("this cluster's MaxArraySize = {} (scontrol show config)", *n)};
  // The user's associations' MaxSubmitJobs, where the cluster keeps accounting: each array task
  // counts, so a larger array is never taken (sacctmgr(1); enforced with
  // AccountingStorageEnforce=limits). The smallest of them, to be safe.
  if (r.out.find("accounting_storage/none") != std::string::npos) return *limit_;
  const passwd* pw = ::getpwuid(::geteuid());
  if (!pw) return *limit_;
  const auto a = run_captured({"sacctmgr", "--noheader", "--parsable2", "show", "assoc", "where",
                               std::string("user=") + pw->pw_name, "format=MaxSubmit"},
                              20);
  if (!a.ok()) return *limit_;
  std::optional<int> most;
  std::istringstream in(a.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line.size() < 10 &&
        line.find_first_not_of("0123456789") == std::string::npos)
      most = std::min(most.value_or(INT32_MAX), std::stoi(line));
  if (most && (!limit_->tasks || *most < *limit_->tasks))
    *limit_ = {*most,
               fmt::format("your association's MaxSubmitJobs = {} (sacctmgr show assoc)", *most)};
  return *limit_;
}

std::string SlurmClient::task_id(const std::string& base, int index) const {
  return base + "_" + std::to_string(index);
}

std::string SlurmClient::base_id(const std::string& job_id) const {
  return job_id.substr(0, job_id.find('_'));
}

std::vector<JobReport> parse_sacct(const std::string& out) {
  std::vector<JobReport> jobs;
  std::map<std::string, size_t> index;  // job id -> position in jobs
  std::map<std::string, long long> step_rss;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto f = split(line, '|');
    if (f.size() < 7) continue;
    const std::string& id = f[0];
    if (const size_t dot = id.find('.'); dot != std::string::npos) {  // a step: its memory
      const std::string& rss = f[6];
      if (!rss.empty() && rss.find_first_not_of("0123456789") == std::string::npos) {
        long long& best = step_rss[id.substr(0, dot)];
        best = std::max(best, std::stoll(rss) / 1024);
      }
      continue;
    }
    JobReport j;
    j.job_id = id;
    // "CANCELLED by 1001": the requester's uid follows the state word.
    const size_t space = f[1].find(' ');
    j.state = f[1].substr(0, space);
    if (space != std::string::npos) j.reason = scheduler_words(f[1].substr(space + 1));
    const ExitAndSignal es = parse_slurm_exit_code(f[2]);
    j.exit_code = es.exit_code;
    j.signal = es.signal;
    const auto epoch = [](const std::string& t) -> std::optional<double> {
      if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
      return std::stod(t);
    };
    j.start_time = epoch(f[3]);
    j.end_time = epoch(f[4]);
    j.nodes = node_list(f[5]);
    settle(j);
    index[id] = jobs.size();
    jobs.push_back(std::move(j));
  }
  for (const auto& [id, kb] : step_rss)
    if (auto it = index.find(id); it != index.end()) jobs[it->second].max_rss_kb = kb;
  return jobs;
}

std::optional<std::vector<JobReport>> SlurmClient::accounting(
    const std::vector<std::string>& job_ids) {
  if (no_accounting_) return std::nullopt;
  std::vector<JobReport> out;
  CommandSettings how;
  how.timeout_s = 60;
  EnvVars env = process_environment();
  set_var(env, "SLURM_TIME_FORMAT", "%s");  // epoch seconds, no time zone to guess; the user's
  how.environment = to_entries(env);        // own setting replaced, not shadowing it
  constexpr size_t kIdsPerCall = 1000;
  for (size_t at = 0; at < job_ids.size(); at += kIdsPerCall) {
    const std::vector<std::string> part(
        job_ids.begin() + static_cast<long>(at),
        job_ids.begin() + static_cast<long>(std::min(job_ids.size(), at + kIdsPerCall)));
    const auto r = run_captured(
        {"sacct", "--noheader", "--parsable2", "--noconvert", "--jobs=" + join(part, ','),
         "--format=JobID,State,ExitCode,Start,End,NodeList,MaxRSS"},
        how);
    if (!r.ok()) {
      // src/sacct/options.c: accounting_storage/none; a slurmdbd down is worth another try.
      if (!r.started || r.err.find("accounting storage is disabled") != std::string::npos)
        no_accounting_ = true;
      return std::nullopt;
    }
    for (auto& j : parse_sacct(r.out)) out.push_back(std::move(j));
  }
  return out;
}

}  // namespace aerun
