#include "aerun/pbs_client.hpp"

#include <time.h>

#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "aerun/captured_command.hpp"

namespace aerun {

namespace {

std::optional<int> int_field(const nlohmann::json& o, const char* name) {
  const auto it = o.find(name);
  if (it == o.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<int>();
  if (it->is_string()) {
    try {
      return std::stoi(it->get<std::string>());
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

std::string text_field(const nlohmann::json& o, const char* name) {
  const auto it = o.find(name);
  if (it == o.end()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

}  // namespace

std::optional<double> parse_pbs_time(const std::string& text) {
  tm t{};
  const char* end = strptime(text.c_str(), "%a %b %d %H:%M:%S %Y", &t);
  if (!end || *end) return std::nullopt;
  t.tm_isdst = -1;
  return static_cast<double>(mktime(&t));
}

std::string repair_pbs_json(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!in_string) {
      if (c == '"') in_string = true;
      out += c;
      continue;
    }
    if (c == '"') {
      in_string = false;
      out += c;
    } else if (c == '\\' && i + 1 < text.size()) {
      const char e = text[i + 1];
      if (std::strchr("\"\\/bfnrtu", e)) {
        out += c;
        out += e;
      } else if (e == '\'') {
        out += e;  // \' is no JSON escape: the quote itself
      } else {
        out += "\\\\";  // a lone backslash (a Windows path, a regex): keep it as text
        out += e;
      }
      ++i;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<JobReport> parse_qstat_json(const std::string& out) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(out);
  } catch (const nlohmann::json::exception&) {
    try {
      doc = nlohmann::json::parse(repair_pbs_json(out));
    } catch (const nlohmann::json::exception& e) {
      throw SchedulerError(std::string("qstat printed no JSON: ") + e.what());
    }
  }
  std::vector<JobReport> jobs;
  const auto js = doc.find("Jobs");
  if (js == doc.end()) return jobs;  // no job matched
  if (!js->is_object()) throw SchedulerError("qstat JSON: \"Jobs\" is not an object");
  for (const auto& [id, attrs] : js->items()) {
    JobReport j;
    j.job_id = id;
    j.state = text_field(attrs, "job_state");
    const auto substate = int_field(attrs, "substate");
    const auto exit_status = int_field(attrs, "Exit_status");
    j.run_state = pbs_run_state(j.state, substate, exit_status);
    j.reason = text_field(attrs, "comment");
    if (exit_status) {
      j.reason =
          "Exit_status=" + std::to_string(*exit_status) + (j.reason.empty() ? "" : "; " + j.reason);
      if (*exit_status >= 0 && *exit_status <= 255) j.exit_code = *exit_status;
      if (*exit_status > 256) j.signal = *exit_status - 256;  // PBS: killed by signal N
    }
    j.start_time = parse_pbs_time(text_field(attrs, "stime"));
    j.end_time = parse_pbs_time(text_field(attrs, "obittime"));
    jobs.push_back(std::move(j));
  }
  return jobs;
}

std::string PbsClient::submit(const std::string& script, const std::string& dir) {
  (void)dir;  // the script changes to the case's workdir itself
  const auto r = run_captured({"qsub", script});
  if (!r.ok()) throw SchedulerError("qsub rejected the job: " + r.message());
  std::string id = r.out.substr(0, r.out.find_first_of("\r\n"));
  if (id.empty() || id.find_first_of(" \t") != std::string::npos)
    throw SchedulerError("qsub printed no job id: " + r.message());
  return id;
}

QueryResult PbsClient::query(const std::vector<std::string>& job_ids) {
  QueryResult q = query_once(job_ids);
  if (!q.ok || job_ids.size() < 2) return q;
  // OpenPBS after 23.06 may answer a multi-ID query with the first job only (openpbs#2672): a job
  // missing from the answer is asked about alone before anyone may conclude it is gone.
  for (const auto& id : job_ids) {
    const bool answered = std::any_of(q.jobs.begin(), q.jobs.end(), [&](const JobReport& j) {
      return base_id(j.job_id) == id || j.job_id == id;
    });
    if (answered) continue;
    QueryResult alone = query_once({id});
    if (!alone.ok) return alone;  // could not ask: this poll says nothing
    q.jobs.insert(q.jobs.end(), alone.jobs.begin(), alone.jobs.end());
  }
  return q;
}

QueryResult PbsClient::query_once(const std::vector<std::string>& job_ids) {
  QueryResult q;
  if (job_ids.empty()) {
    q.ok = true;
    return q;
  }
  std::vector<std::string> argv{"qstat", "-f", "-F", "json", "-x", "-t"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  const auto r = run_captured(argv);
  // Unknown ids make qstat exit non-zero while still printing the jobs it knows.
  const bool only_unknown = r.started && !r.timed_out &&
                            r.err.find("Unknown Job Id") != std::string::npos &&
                            r.err.find("cannot connect") == std::string::npos;
  if (!r.ok() && !only_unknown) {
    q.error = "qstat failed: " + r.message();
    return q;
  }
  if (r.out.find_first_not_of(" \t\r\n") == std::string::npos) {
    q.ok = true;  // none of the ids is known any more
    return q;
  }
  try {
    q.jobs = parse_qstat_json(r.out);
    q.ok = true;
  } catch (const SchedulerError& e) {
    q.error = e.what();
  }
  return q;
}

void PbsClient::cancel(const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return;
  std::vector<std::string> argv{"qdel"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  const auto r = run_captured(argv);
  if (!r.ok()) throw SchedulerError("qdel failed: " + r.message());
}

std::string PbsClient::task_id(const std::string& base, int index) const {
  const size_t open = base.find("[]");
  if (open == std::string::npos) return base;
  return base.substr(0, open + 1) + std::to_string(index) + base.substr(open + 1);
}

std::string PbsClient::base_id(const std::string& job_id) const {
  const size_t open = job_id.find('[');
  const size_t close = job_id.find(']', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return job_id;
  return job_id.substr(0, open + 1) + job_id.substr(close);
}

}  // namespace aerun
