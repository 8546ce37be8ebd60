// PBS Pro through its commands: qsub, `qstat -f -F json -x -t` (every job, finished ones and
// array subjobs included, in one call), qdel.
#pragma once

#include "aerun/scheduler_client.hpp"

namespace aerun {

class PbsClient : public SchedulerClient {
 public:
  Scheduler kind() const override { return Scheduler::Pbs; }
  std::string submit(const std::string& script, const std::string& dir) override;
  QueryResult query(const std::vector<std::string>& job_ids) override;
  void cancel(const std::vector<std::string>& job_ids) override;
  // "123[].srv" + 4 -> "123[4].srv".
  std::string task_id(const std::string& base, int index) const override;
  // "123[4].srv" -> "123[].srv"; "123.srv" stays.
  std::string base_id(const std::string& job_id) const override;

 private:
  QueryResult query_once(const std::vector<std::string>& job_ids);
};

// Parses `qstat -f -F json` output: every job and subjob of its "Jobs" object. Text that is not
// valid JSON is repaired first (repair_pbs_json); throws SchedulerError when it still is not.
std::vector<JobReport> parse_qstat_json(const std::string& out);

// The JSON some PBS versions print is invalid inside strings: `\'` and other escapes JSON does
// not have, raw tabs and newlines from job comments and variable lists. Returns the text with
// those strings made valid (an unknown escape keeps its character, control characters become
// \u00XX); valid JSON comes back unchanged.
std::string repair_pbs_json(const std::string& text);

// PBS's ctime-style stamps ("Thu Nov 12 10:00:00 2020", local time); nullopt when unparsable.
std::optional<double> parse_pbs_time(const std::string& text);

}  // namespace aerun
