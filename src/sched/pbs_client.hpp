// PBS Pro through its commands: qsub, `qstat -f -F json -x -t` (every job, finished ones and
// array subjobs included, in one call), qdel. A job missing from a multi-id answer is asked
// about alone (openpbs#2672); JSON that is invalid even after repair is asked again as plain
// `qstat -f -x -t`; only when that fails too does the query fail (retried next poll).
#pragma once

#include <map>

#include "aerun/sched/scheduler_client.hpp"

namespace aerun {

class PbsClient : public SchedulerClient {
 public:
  Scheduler kind() const override { return Scheduler::Pbs; }
  using SchedulerClient::submit;
  std::string submit(const std::string& script, const std::string& dir,
                     const JobDeps& after) override;
  QueryResult query(const std::vector<std::string>& job_ids) override;
  void cancel(const std::vector<std::string>& job_ids) override;
  // "123[].srv" + 4 -> "123[4].srv".
  std::string task_id(const std::string& base, int index) const override;
  // "123[4].srv" -> "123[].srv"; "123.srv" stays.
  std::string base_id(const std::string& job_id) const override;
  // PBS's words for a server out of reach or busy: the commands' "cannot connect to server"
  // (openpbs src/cmds/*.c), "No free connections" (PBSE_NOCONNECTS) and "Batch protocol error"
  // (PBSE_PROTOCOL, src/lib/Liblog/pbs_messages.c).
  bool transient(const std::string& message) const override;
  // openpbs src/lib/Liblog/pbs_messages.c: msg_maxarraysize "Array job exceeds server or queue
  // size limit"; the queue limits' "Maximum number of jobs [for user|group|project ...] already
  // in queue|complex" and "would exceed ... per-user|-group|-project limit".
  Refusal refusal(const std::string& message) const override;
  std::string queue_limit_command() const override { return "qmgr -c 'list server max_queued'"; }
  // `qselect -N NAME`: the job's (array's "123[].server") id.
  std::optional<std::string> find_job(const std::string& name) override;
  // The server's max_array_size (`qmgr -c 'list server max_array_size'`; PBS's default 10,000
  // when unset or when qmgr does not answer) and the queue's, the smaller (asked once a queue).
  ArrayLimit array_limit(const std::string& queue) override;

 private:
  std::map<std::string, ArrayLimit> limits_;  // by queue
};

// Parses `qstat -f -F json` output: every job and subjob of its "Jobs" object. Invalid JSON is
// first repaired (repair_qstat_json); throws SchedulerError for text that is still not that JSON.
std::vector<JobReport> parse_qstat_json(const std::string& out);

// Repairs the JSON defects public reports show in PBS's `-F json` output, inside strings:
// `\'` and `\,` (PBS's own attribute escapes, openpbs#2049) lose the backslash; any other
// backslash that starts no JSON escape is kept as a backslash (`MYDOMAIN\user`,
// Azure/cyclecloud-pbspro#91; BASH_FUNC_ bodies, openpbs#2541); raw control characters are
// escaped; a quote that cannot end the string is escaped (openpbs PR #830). Outside strings, a
// bare value that is no JSON literal (`"foo":005`, openpbs#1255) becomes a string. Valid JSON
// comes back unchanged.
std::string repair_qstat_json(const std::string& text);

// Parses plain `qstat -f` output ("Job Id: ID" then "    name = value" lines, tab-continued):
// asked when even the repaired JSON is invalid. Throws SchedulerError when no job is in it.
std::vector<JobReport> parse_qstat_full(const std::string& out);

// PBS's ctime-style stamps ("Thu Nov 12 10:00:00 2020", local time); nullopt when unparsable.
std::optional<double> parse_pbs_time(const std::string& text);

}  // namespace aerun
