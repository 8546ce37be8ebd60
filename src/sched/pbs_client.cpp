#include "sched/pbs_client.hpp"

#include <time.h>

#include <cctype>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "aerun/sched/pbs_states.hpp"
#include "aerun/util/captured_command.hpp"

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

namespace {

bool is_json_literal(const std::string& t) {
  if (t == "true" || t == "false" || t == "null") return true;
  // JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  size_t i = 0;
  auto digits = [&] {
    const size_t b = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i - b;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0')
    ++i;
  else if (digits() == 0)
    return false;
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == t.size();
}

bool is_hex4(const std::string& s, size_t at) {
  if (at + 4 > s.size()) return false;
  for (size_t k = at; k < at + 4; ++k)
    if (!std::isxdigit(static_cast<unsigned char>(s[k]))) return false;
  return true;
}

// The hosts of `exec_host` ("n1/0*2+n2/0*2" -> "n1,n2"), each once, in order.
std::string exec_hosts(const std::string& exec_host) {
  std::string out;
  size_t from = 0;
  while (from < exec_host.size()) {
    size_t plus = exec_host.find('+', from);
    if (plus == std::string::npos) plus = exec_host.size();
    const std::string part = exec_host.substr(from, plus - from);
    const std::string host = part.substr(0, part.find('/'));
    if (!host.empty() && ("," + out + ",").find("," + host + ",") == std::string::npos)
      out += (out.empty() ? "" : ",") + host;
    from = plus + 1;
  }
  return out;
}

JobReport report_from(const std::string& id, const std::string& state, std::optional<int> substate,
                      std::optional<int> exit_status, const std::string& comment,
                      const std::string& stime, const std::string& obittime,
                      const std::string& exec_host) {
  JobReport j;
  j.nodes = exec_hosts(exec_host);
  j.job_id = id;
  j.state = state;
  j.run_state = pbs_run_state(j.state, substate, exit_status, comment);
  j.reason = scheduler_words(comment);
  if (exit_status) {
    j.reason =
        "Exit_status=" + std::to_string(*exit_status) + (j.reason.empty() ? "" : "; " + j.reason);
    // Exit_status: the script's exit code, or 256 + the signal that killed it (OpenPBS
    // src/resmom/linux/mom_start.c: `exiteval = WTERMSIG(statloc) + 0x100`); negative values
    // are PBS's own JOB_EXEC_* codes (pbs_states.hpp).
    if (*exit_status >= 0 && *exit_status <= 255) j.exit_code = *exit_status;
    if (*exit_status > 256 && *exit_status < 256 + 128) j.signal = *exit_status - 256;
  }
  j.start_time = parse_pbs_time(stime);
  j.end_time = parse_pbs_time(obittime);
  return j;
}

std::optional<int> to_int(const std::string& s) {
  try {
    size_t used = 0;
    const int v = std::stoi(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Copies the string that starts at in[i] (its opening quote) to out, repairing what old PBS
// writers left unescaped; returns the index after its closing quote.
size_t copy_qstat_string(const std::string& in, size_t i, std::string& out) {
  out += '"';
  ++i;
  while (i < in.size()) {
    const char d = in[i];
    if (d == '\\') {
      const char e = i + 1 < in.size() ? in[i + 1] : '\0';
      if (e == '\'' || e == ',') {
        // PBS's own escapes of its attribute encoding (`\'`, `\,` in Variable_List): dropped, as
        // OpenPBS's fix does (openpbs#2049).
        out += e;
        i += 2;
      } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                 e == 'r' || e == 't' || (e == 'u' && is_hex4(in, i + 2))) {
        out += d;
        out += e;
        i += 2;
      } else {
        // A literal backslash never escaped (`MYDOMAIN\myuser`: Azure/cyclecloud-pbspro#91,
        // BASH_FUNC_ bodies: openpbs#2541): kept as a backslash.
        out += "\\\\";
        ++i;
      }
    } else if (d == '"') {
      // The end of the string, unless what follows cannot follow a string: then it is a quote
      // PBS did not escape (openpbs PR #830: `"comment":"... "zaskly sdileny" ..."`).
      size_t k = i + 1;
      while (k < in.size() && is_blank(in[k])) ++k;
      ++i;
      if (k >= in.size() || in[k] == ',' || in[k] == ':' || in[k] == '}' || in[k] == ']') {
        out += '"';
        return i;
      }
      out += "\\\"";
    } else if (static_cast<unsigned char>(d) < 0x20) {
      // A raw control character (a newline or tab in a comment or a bash function body).
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[(d >> 4) & 0xf];
      out += hex[d & 0xf];
      ++i;
    } else {
      out += d;
      ++i;
    }
  }
  return i;
}

// Copies the value after a ':', '[' or ',' at in[i] to out: PBS writes values that look numeric
// without quotes, also `005` or `1.2.3` (openpbs#1255); anything that is not a JSON literal
// becomes a string. Returns the index after it.
size_t copy_qstat_bare_value(const std::string& in, size_t i, std::string& out) {
  out += in[i++];
  size_t k = i;
  while (k < in.size() && is_blank(in[k])) ++k;
  out.append(in, i, k - i);
  i = k;
  if (i >= in.size() || in[i] == '"' || in[i] == '{' || in[i] == '[' || in[i] == ']' ||
      in[i] == '}')
    return i;
  size_t e = i;
  while (e < in.size() && in[e] != ',' && in[e] != '}' && in[e] != ']' && in[e] != '\n' &&
         in[e] != '\r')
    ++e;
  size_t end = e;
  while (end > i && (in[end - 1] == ' ' || in[end - 1] == '\t')) --end;
  const std::string token = in.substr(i, end - i);
  if (is_json_literal(token)) {
    out += token;
  } else {
    out += '"';
    for (char t : token) {
      if (t == '"' || t == '\\') out += '\\';
      out += t;
    }
    out += '"';
  }
  out.append(in, end, e - end);
  return e;
}

}  // namespace

std::string repair_qstat_json(const std::string& in) {
  std::string out;
  out.reserve(in.size() + 64);
  for (size_t i = 0; i < in.size();) {
    const char c = in[i];
    if (c == '"')
      i = copy_qstat_string(in, i, out);
    else if (c == ':' || c == '[' || c == ',')
      i = copy_qstat_bare_value(in, i, out);
    else {
      out += c;
      ++i;
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
      doc = nlohmann::json::parse(repair_qstat_json(out));
    } catch (const nlohmann::json::exception& e) {
      throw SchedulerError(std::string("qstat printed no valid JSON (even after repair): ") +
                           e.what());
    }
  }
  std::vector<JobReport> jobs;
  if (!doc.is_object()) throw SchedulerError("qstat JSON is not an object");
  const auto js = doc.find("Jobs");
  if (js == doc.end()) return jobs;  // no job matched
  if (!js->is_object()) throw SchedulerError("qstat JSON: \"Jobs\" is not an object");
  for (const auto& [id, attrs] : js->items()) {
    if (!attrs.is_object()) throw SchedulerError("qstat JSON: job " + id + " is not an object");
    jobs.push_back(report_from(id, text_field(attrs, "job_state"), int_field(attrs, "substate"),
                               int_field(attrs, "Exit_status"), text_field(attrs, "comment"),
                               text_field(attrs, "stime"), text_field(attrs, "obittime"),
                               text_field(attrs, "exec_host")));
  }
  return jobs;
}

std::vector<JobReport> parse_qstat_full(const std::string& out) {
  // `qstat -f` (OpenPBS src/cmds/qstat.c prt_attr): "Job Id: ID", then "    name = value" per
  // attribute, long values continued on lines starting with a tab.
  std::vector<JobReport> jobs;
  std::string id;
  std::vector<std::pair<std::string, std::string>> attrs;
  auto flush = [&] {
    if (id.empty()) return;
    auto get = [&](const char* name) {
      for (const auto& [k, v] : attrs)
        if (k == name) return v;
      return std::string();
    };
    jobs.push_back(report_from(id, get("job_state"), to_int(get("substate")),
                               to_int(get("Exit_status")), get("comment"), get("stime"),
                               get("obittime"), get("exec_host")));
    id.clear();
    attrs.clear();
  };
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("Job Id: ", 0) == 0) {
      flush();
      id = line.substr(8);
      id.erase(id.find_last_not_of(" \t") + 1);
    } else if (!line.empty() && line[0] == '\t' && !attrs.empty()) {
      attrs.back().second += line.substr(1);
    } else if (line.rfind("    ", 0) == 0) {
      const size_t eq = line.find(" = ");
      if (eq == std::string::npos) continue;
      attrs.emplace_back(line.substr(4, eq - 4), line.substr(eq + 3));
    }
  }
  flush();
  if (jobs.empty() && out.find_first_not_of(" \t\r\n") != std::string::npos)
    throw SchedulerError("qstat -f printed no job: " + out.substr(0, 200));
  return jobs;
}

std::string PbsClient::submit(const std::string& script, const std::string& dir,
                              const JobDeps& after) {
  (void)dir;  // the script changes to the case's workdir itself
  std::vector<std::string> argv{"qsub"};
  // "depend=afterok:1:2,afterany:3" (the depend attribute's list of types; qsub's -W parser
  // keeps a comma-separated item without '=' in the value before it: openpbs parse_equal.c).
  std::string dep;
  for (const auto& [type, ids] :
       {std::pair{"afterok", &after.ok}, std::pair{"afterany", &after.any}})
    if (!ids->empty()) {
      dep += std::string(dep.empty() ? "depend=" : ",") + type;
      for (const auto& id : *ids) dep += ":" + id;
    }
  if (!dep.empty()) argv.insert(argv.end(), {"-W", dep});
  argv.push_back(script);
  const auto r = run_captured(argv);
  if (!r.ok()) throw SchedulerError("qsub rejected the job: " + r.message());
  std::string id = r.out.substr(0, r.out.find_first_of("\r\n"));
  if (id.empty() || id.find_first_of(" \t") != std::string::npos)
    throw SchedulerError("qsub printed no job id: " + r.message());
  return id;
}

namespace {

// One qstat call: ok=false when the server could not be asked or its answer could not be read.
QueryResult qstat_once(const std::vector<std::string>& job_ids) {
  QueryResult q;
  std::vector<std::string> argv{"qstat", "-f", "-F", "json", "-x", "-t"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  const auto r = run_captured(argv);
  // Unknown ids make qstat exit non-zero while still printing the jobs it knows.
  auto only_unknown = [](const CommandResult& r) {
    return r.started && !r.timed_out && r.err.find("Unknown Job Id") != std::string::npos &&
           r.err.find("cannot connect") == std::string::npos;
  };
  if (!r.ok() && !only_unknown(r)) {
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
    return q;
  } catch (const SchedulerError& e) {
    q.error = e.what();
  }
  // JSON that no repair makes valid (e.g. PBS Pro 14's `"Jobs":{` before every job,
  // openpbs PR #585): the same question in qstat's plain `-f` format.
  std::vector<std::string> plain{"qstat", "-f", "-x", "-t"};
  plain.insert(plain.end(), job_ids.begin(), job_ids.end());
  const auto t = run_captured(plain);
  if (!t.ok() && !only_unknown(t)) {
    q.error += "; qstat -f failed too: " + t.message();
    return q;
  }
  try {
    q.jobs = parse_qstat_full(t.out);
    q.ok = true;
    q.error.clear();
  } catch (const SchedulerError& e) {
    q.error += std::string("; ") + e.what();
  }
  return q;
}

// "123[].srv" / "123.srv" -> "123[]" / "123": how PBS may shorten or lengthen the server part.
std::string id_head(const std::string& id) {
  return id.substr(0, id.find('.'));
}

bool answered(const QueryResult& q, const std::string& id) {
  for (const auto& j : q.jobs)
    if (j.job_id == id || id_head(j.job_id) == id_head(id)) return true;
  return false;
}

}  // namespace

QueryResult PbsClient::query(const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return QueryResult{true, "", {}};
  QueryResult q = qstat_once(job_ids);
  if (!q.ok || job_ids.size() < 2) return q;
  // OpenPBS after 23.06 may answer `qstat -f -F json ID1 ID2 ...` with the first job only
  // (openpbs#2672): a job missing from a multi-id answer is asked about alone before the
  // follower may count it as gone.
  for (const auto& id : job_ids) {
    if (answered(q, id)) continue;
    QueryResult one = qstat_once({id});
    if (!one.ok) {
      // Nothing may be concluded about a job the server could not be asked about.
      return QueryResult{false, "qstat about " + id + " alone: " + one.error, {}};
    }
    for (auto& j : one.jobs)
      if (!q.find(j.job_id)) q.jobs.push_back(std::move(j));
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

Refusal PbsClient::refusal(const std::string& message) const {
  if (message.find("Array job exceeds server or queue size limit") != std::string::npos)
    return Refusal::ArrayTooLarge;
  if (message.find("Maximum number of jobs") != std::string::npos ||
      (message.find("would exceed") != std::string::npos &&
       message.find("limit") != std::string::npos))
    return Refusal::QueueLimit;
  return Refusal::Other;
}

bool PbsClient::transient(const std::string& message) const {
  for (const char* words : {"cannot connect to server", "No free connections",
                            "Batch protocol error", "Connection refused", "Connection timed out"})
    if (message.find(words) != std::string::npos) return true;
  return false;
}

std::optional<std::string> PbsClient::find_job(const std::string& name) {
  const auto r = run_captured({"qselect", "-N", name});
  if (!r.ok()) return std::nullopt;
  std::string id = r.out.substr(0, r.out.find_first_of(" \t\r\n"));
  if (id.empty()) return std::nullopt;
  return id;
}

ArrayLimit PbsClient::array_limit(const std::string& queue) {
  if (const auto it = limits_.find(queue); it != limits_.end()) return it->second;
  // The server's limit, else PBS's own default (PBS_MAX_ARRAY_JOB_DFL in openpbs's
  // src/server/array_func.c); a queue's max_array_size applies on top (svr_jobfunc.c).
  ArrayLimit limit{10000, "PBS's default max_array_size = 10000"};
  const auto server = run_captured({"qmgr", "-c", "list server max_array_size"});
  if (server.ok())
    if (const auto n = setting_number(server.out, "max_array_size"))
      limit = {static_cast<int>(*n),
               fmt::format("the server's max_array_size = {} (qmgr -c 'list server')", *n)};
  // A queue name is letters, digits, _ and - (PBS Pro Reference Guide): nothing else is handed to
  // qmgr's command parser.
  const bool plain_name = !queue.empty() && std::isalpha(static_cast<unsigned char>(queue[0])) &&
                          queue.find_first_not_of(
                              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                              "VWXYZ0123456789_-") == std::string::npos;
  if (plain_name) {
    const auto q = run_captured({"qmgr", "-c", "list queue " + queue + " max_array_size"});
    if (q.ok())
      if (const auto n = setting_number(q.out, "max_array_size"); n && *n < *limit.tasks)
        limit = {static_cast<int>(*n),
                 fmt::format("queue {}'s max_array_size = {} (qmgr -c 'list queue')", queue, *n)};
  }
  return limits_[queue] = limit;
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
