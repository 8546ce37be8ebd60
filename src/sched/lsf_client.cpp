#include "sched/lsf_client.hpp"

#include <time.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include <nlohmann/json.hpp>

#include "aerun/sched/lsf_states.hpp"
#include "aerun/util/captured_command.hpp"

namespace aerun {

namespace {

// The fields every query asks for, in bjobs -o's names (IBM LSF 10.1, bjobs -o).
constexpr const char* kFields =
    "jobid jobindex stat exit_code exit_reason pend_reason submit_time start_time finish_time "
    "exec_host";

std::optional<int> whole(const std::string& s) {
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), ::isdigit)) return std::nullopt;
  return std::stoi(s);
}

std::string field(const nlohmann::json& rec, const char* key) {
  const auto it = rec.find(key);
  return it != rec.end() && it->is_string() ? it->get<std::string>() : "";
}

// EXEC_HOST "4*hostA:2*hostB" or "hostA:hostA" -> "hostA,hostB".
std::string exec_hosts(const std::string& text) {
  std::vector<std::string> hosts;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ':');) {
    const size_t star = item.find('*');
    if (star != std::string::npos) item = item.substr(star + 1);
    if (!item.empty() && std::find(hosts.begin(), hosts.end(), item) == hosts.end())
      hosts.push_back(item);
  }
  std::string out;
  for (const auto& h : hosts) out += (out.empty() ? "" : ",") + h;
  return out;
}

// The RECORDS of bjobs' JSON, past any line LSF printed before it ("... Please wait ..."); a
// null json when the output holds no such JSON.
nlohmann::json bjobs_records(const std::string& out) {
  const size_t open = out.find('{');
  const size_t close = out.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return {};
  auto doc = nlohmann::json::parse(out.substr(open, close - open + 1), nullptr, false);
  if (!doc.is_object() || !doc.contains("RECORDS") || !doc["RECORDS"].is_array()) return {};
  return std::move(doc["RECORDS"]);
}

}  // namespace

std::string lsf_submitted_id(const std::string& out) {
  std::stringstream in(out);
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find("Job <");
    if (at == std::string::npos) continue;
    const size_t end = line.find('>', at + 5);
    if (end == std::string::npos || line.compare(end, 17, "> is submitted to") != 0) continue;
    const std::string id = line.substr(at + 5, end - at - 5);
    if (whole(id)) return id;
  }
  return "";
}

std::optional<double> parse_lsf_time(const std::string& text) {
  static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  std::istringstream in(text);
  std::string mon, hm, year;
  int day = 0;
  if (!(in >> mon >> day >> hm)) return std::nullopt;
  in >> year;  // or a letter (L, E, F), or nothing
  const auto m = std::find(std::begin(months), std::end(months), mon);
  int h = 0, mi = 0;
  if (m == std::end(months) || day < 1 || day > 31 ||
      std::sscanf(hm.c_str(), "%d:%d", &h, &mi) != 2)
    return std::nullopt;
  const time_t now = ::time(nullptr);
  tm t{};
  ::localtime_r(&now, &t);
  int y = t.tm_year + 1900;
  if (const auto given = whole(year)) y = *given;
  tm at{};
  at.tm_year = y - 1900;
  at.tm_mon = static_cast<int>(m - std::begin(months));
  at.tm_mday = day;
  at.tm_hour = h;
  at.tm_min = mi;
  at.tm_isdst = -1;
  const time_t when = ::mktime(&at);
  // No year: this year's date, unless that is in the future (December's job read in January).
  if (!whole(year) && when > now + 86400) {
    at.tm_year -= 1;
    at.tm_isdst = -1;
    return static_cast<double>(::mktime(&at));
  }
  return static_cast<double>(when);
}

std::vector<JobReport> parse_bjobs_json(const std::string& out) {
  const nlohmann::json records = bjobs_records(out);
  if (records.is_null())
    throw SchedulerError("bjobs printed no JSON with RECORDS: " +
                         scheduler_words(out.substr(0, 200)));
  std::vector<JobReport> jobs;
  for (const auto& rec : records) {
    if (!rec.is_object() || !rec.contains("STAT")) continue;  // {"ERROR": ...}: no such job
    JobReport j;
    const std::string id = field(rec, "JOBID");
    const std::string index = field(rec, "JOBINDEX");
    if (!whole(id)) continue;
    j.job_id = index.empty() || index == "0" ? id : id + "[" + index + "]";
    j.state = field(rec, "STAT");
    const std::string reason = field(rec, "EXIT_REASON");
    j.reason = scheduler_words(!reason.empty() ? reason : field(rec, "PEND_REASON"));
    j.run_state = lsf_run_state(j.state, reason);
    // EXIT_CODE is "" for DONE (bjobs prints no exit value for a zero one).
    if (const auto code = whole(field(rec, "EXIT_CODE"))) {
      // An exit value over 128 is 128 + the signal that ended the job (a run limit: SIGUSR2, 140).
      if (*code > 128 && *code < 160) j.signal = *code - 128;
      j.exit_code = *code;
    } else if (j.state == "DONE") {
      j.exit_code = 0;
    }
    j.start_time = parse_lsf_time(field(rec, "START_TIME"));
    j.end_time = parse_lsf_time(field(rec, "FINISH_TIME"));
    j.nodes = exec_hosts(field(rec, "EXEC_HOST"));
    jobs.push_back(std::move(j));
  }
  return jobs;
}

std::string LsfClient::submit(const std::string& script, const std::string& dir,
                              const JobDeps& after) {
  (void)dir;  // the script changes to the case's workdir itself
  std::vector<std::string> argv{"bsub"};
  // -w 'done(1) && done(2) && ended(3)' (IBM LSF 10.1, "Dependency conditions").
  std::string dep;
  for (const auto& [word, ids] : {std::pair{"done", &after.ok}, std::pair{"ended", &after.any}})
    for (const auto& id : *ids)
      dep += (dep.empty() ? "" : " && ") + std::string(word) + "(" + id + ")";
  if (!dep.empty()) argv.insert(argv.end(), {"-w", dep});
  CommandSettings how;
  how.stdin_file = script;  // #BSUB lines are read from stdin
  const auto r = run_captured(argv, how);
  const std::string id = lsf_submitted_id(r.out + "\n" + r.err);
  if (!id.empty()) return id;
  throw SchedulerError("bsub rejected the job: " + r.message());
}

QueryResult LsfClient::query(const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return QueryResult{true, "", {}};
  std::vector<std::string> argv{"bjobs", "-a", "-json", "-o", kFields};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  const auto r = run_captured(argv);
  QueryResult q;
  // bjobs exits 255 when one id is unknown ("Job <123> is not found" on stderr) while still
  // listing the others (its exit code depends on LSB_BJOBS_CONSISTENT_EXIT_CODE): the JSON
  // decides, and a run without JSON is a failed query.
  if (!r.started || r.timed_out || r.out.find('{') == std::string::npos) {
    if (r.started && !r.timed_out && r.out.find_first_not_of(" \t\r\n") == std::string::npos &&
        r.err.find("is not found") != std::string::npos &&
        r.err.find("Please wait") == std::string::npos) {
      q.ok = true;  // none of the ids is known any more
      return q;
    }
    q.error = "bjobs failed: " + r.message();
    return q;
  }
  try {
    q.jobs = parse_bjobs_json(r.out);
    q.ok = true;
  } catch (const SchedulerError& e) {
    q.error = e.what();
  }
  return q;
}

void LsfClient::cancel(const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return;
  std::vector<std::string> argv{"bkill"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  const auto r = run_captured(argv);
  // "Job <X>: Job has already finished" is no failure: the job is over.
  if (!r.ok() && r.err.find("already finished") == std::string::npos)
    throw SchedulerError("bkill failed: " + r.message());
}

std::string LsfClient::task_id(const std::string& base, int index) const {
  return base + "[" + std::to_string(index + 1) + "]";
}

std::string LsfClient::base_id(const std::string& job_id) const {
  return job_id.substr(0, job_id.find('['));
}

bool LsfClient::transient(const std::string& message) const {
  return message.find("Please wait") != std::string::npos ||
         message.find("Request from non-LSF host rejected") != std::string::npos;
}

Refusal LsfClient::refusal(const std::string& message) const {
  if (message.find("Job array index too large") != std::string::npos) return Refusal::ArrayTooLarge;
  // LSBE_*_JOB_LIMIT: "User's job limit reached", "... group's job limit ...", "... project ...".
  if (message.find("job limit") != std::string::npos ||
      message.find("Job limit") != std::string::npos)
    return Refusal::QueueLimit;
  return Refusal::Other;
}

std::optional<std::string> LsfClient::find_job(const std::string& name) {
  const auto r = run_captured({"bjobs", "-a", "-J", name, "-json", "-o", "jobid"});
  for (const auto& rec : bjobs_records(r.out))
    if (rec.is_object() && whole(field(rec, "JOBID"))) return field(rec, "JOBID");
  return std::nullopt;
}

ArrayLimit LsfClient::array_limit(const std::string& queue) {
  (void)queue;  // MAX_JOB_ARRAY_SIZE is the cluster's (lsb.params), not a queue's
  if (limit_) return *limit_;
  const auto r = run_captured({"bparams", "-a"});
  if (const auto n = setting_number(r.out, "MAX_JOB_ARRAY_SIZE"))
    limit_ = ArrayLimit{static_cast<int>(*n), "MAX_JOB_ARRAY_SIZE = " + std::to_string(*n)};
  else
    limit_ = ArrayLimit{1000, "LSF's default MAX_JOB_ARRAY_SIZE (1000; bparams -a did not say)"};
  return *limit_;
}

}  // namespace aerun
