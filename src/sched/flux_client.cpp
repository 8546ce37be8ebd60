#include "sched/flux_client.hpp"

#include <unistd.h>

#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "aerun/sched/flux_states.hpp"
#include "aerun/util/captured_command.hpp"

extern char** environ;

namespace aerun {

namespace {

// This process's environment with FLUX_F58_FORCE_ASCII=1: ids print as "f..." not "ƒ..."
// (flux-core src/common/libutil/fluid.c), and the job shell names files the same way.
CommandSettings ascii_ids() {
  CommandSettings how;
  std::vector<std::string> env{"FLUX_F58_FORCE_ASCII=1"};
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).rfind("FLUX_F58_FORCE_ASCII=", 0) != 0) env.emplace_back(*e);
  how.environment = std::move(env);
  return how;
}

std::string text(const nlohmann::json& o, const char* key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}

std::optional<double> number(const nlohmann::json& o, const char* key) {
  const auto it = o.find(key);
  if (it == o.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// "vm,vm" (a host per broker) -> "vm".
std::string unique_hosts(const std::string& list) {
  std::vector<std::string> hosts;
  std::stringstream in(list);
  for (std::string h; std::getline(in, h, ',');)
    if (!h.empty() && std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  std::string out;
  for (const auto& h : hosts) out += (out.empty() ? "" : ",") + h;
  return out;
}

JobReport report_of(const nlohmann::json& j) {
  JobReport r;
  const auto id = j.find("id");  // the integer id; "jobid" (F58) only since 0.83
  if (id != j.end() && id->is_number_unsigned())
    r.job_id = std::to_string(id->get<uint64_t>());
  else
    r.job_id = flux_decimal_id(text(j, "jobid"));
  const std::string state = text(j, "state");
  const std::string result = text(j, "result");
  std::string type, note;
  if (const auto ex = j.find("exception");
      ex != j.end() && ex->is_object() && ex->value("occurred", false)) {
    type = text(*ex, "type");
    note = text(*ex, "note");
  }
  r.state = state == "INACTIVE" && !result.empty() ? result : state;
  r.run_state = flux_run_state(state, result, type, note);
  r.reason = scheduler_words(!note.empty() ? type + ": " + note : type);
  // returncode: the script's exit code; 128 + a signal when a task died of one (the job shell's
  // convention); -N when the shell itself was killed by signal N; -128 when it never ran.
  if (const auto rc = number(j, "returncode")) {
    const int code = static_cast<int>(*rc);
    if (code >= 0 && code <= 255) {
      r.exit_code = code;
      if (code > 128 && code < 160) r.signal = code - 128;
    } else if (code < 0 && code > -128) {
      r.signal = -code;
    }
  }
  r.start_time = number(j, "t_run");
  if (state == "INACTIVE") r.end_time = number(j, "t_inactive");
  r.nodes = unique_hosts(text(j, "nodelist"));
  return r;
}

}  // namespace

std::vector<JobReport> parse_flux_jobs_json(const std::string& out) {
  const auto doc = nlohmann::json::parse(out, nullptr, false);
  if (!doc.is_object())
    throw SchedulerError("flux jobs printed no JSON: " + scheduler_words(out.substr(0, 200)));
  std::vector<JobReport> jobs;
  if (const auto list = doc.find("jobs"); list != doc.end() && list->is_array()) {
    for (const auto& j : *list)
      if (j.is_object()) jobs.push_back(report_of(j));
  } else if (doc.contains("state")) {
    jobs.push_back(report_of(doc));
  } else {
    throw SchedulerError("flux jobs JSON holds no job: " + scheduler_words(out.substr(0, 200)));
  }
  std::erase_if(jobs, [](const JobReport& r) { return r.job_id.empty(); });
  return jobs;
}

std::string FluxClient::submit(const std::string& script, const std::string& dir,
                               const JobDeps& after) {
  (void)dir;  // the script changes to the case's workdir itself
  std::vector<std::string> argv{"flux", "batch"};
  // flux-core doc/man1/common/job-dependencies.rst: afterok:ID, afterany:ID, repeatable.
  for (const auto& id : after.ok) argv.push_back("--dependency=afterok:" + id);
  for (const auto& id : after.any) argv.push_back("--dependency=afterany:" + id);
  argv.push_back(script);
  const auto r = run_captured(argv, ascii_ids());
  const std::string first = r.out.substr(0, r.out.find_first_of("\r\n"));
  const std::string id = r.ok() ? flux_decimal_id(first) : "";
  if (id.empty()) throw SchedulerError("flux batch rejected the job: " + r.message());
  return id;
}

QueryResult FluxClient::query(const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return QueryResult{true, "", {}};
  std::vector<std::string> argv{"flux", "jobs", "--json"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  const auto r = run_captured(argv, ascii_ids());
  QueryResult q;
  // Unknown (purged) ids: "JobID ID unknown" on stderr; exit 1 when none was found (0.80+).
  if (r.started && !r.timed_out && r.out.find_first_not_of(" \t\r\n") == std::string::npos &&
      r.err.find(" unknown") != std::string::npos &&
      r.err.find("Unable to connect") == std::string::npos) {
    q.ok = true;
    return q;
  }
  if (!r.started || r.timed_out || r.out.find('{') == std::string::npos) {
    q.error = "flux jobs failed: " + r.message();
    return q;
  }
  try {
    q.jobs = parse_flux_jobs_json(r.out);
    q.ok = true;
  } catch (const SchedulerError& e) {
    q.error = e.what();
  }
  return q;
}

void FluxClient::cancel(const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return;
  std::vector<std::string> argv{"flux", "cancel"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  const auto r = run_captured(argv, ascii_ids());
  // "flux-cancel: ERROR: fCBPEuKu: job is inactive": over already.
  if (!r.ok() && r.err.find("job is inactive") == std::string::npos)
    throw SchedulerError("flux cancel failed: " + r.message());
}

std::string FluxClient::task_id(const std::string& base, int index) const {
  (void)index;
  return base;
}

bool FluxClient::transient(const std::string& message) const {
  return message.find("Unable to connect to Flux") != std::string::npos;
}

Refusal FluxClient::refusal(const std::string& message) const {
  if (message.find("exceeds policy limit") != std::string::npos ||
      message.find("max active jobs") != std::string::npos)
    return Refusal::QueueLimit;
  return Refusal::Other;
}

ArrayLimit FluxClient::array_limit(const std::string& queue) {
  (void)queue;
  return {0, "Flux has no job arrays (flux batch takes no --cc)"};
}

}  // namespace aerun
