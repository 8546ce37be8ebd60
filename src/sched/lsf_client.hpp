// IBM Spectrum LSF through its commands: `bsub < script` (bsub reads #BSUB directives only from
// stdin unless the site sets LSB_BSUB_PARSE_SCRIPT), `bjobs -a -json -o FIELDS ID...` (LSF
// 10.1.0.2 and later; finished jobs stay listed for CLEAN_PERIOD, an hour by default), `bkill`,
// `bparams -a` for MAX_JOB_ARRAY_SIZE. No LSF exists here: tested on a stand-in that answers as
// IBM's documentation and real outputs in public projects show (tests/fixtures/lsf/README.md).
#pragma once

#include <map>

#include "aerun/sched/scheduler_client.hpp"

namespace aerun {

class LsfClient : public SchedulerClient {
 public:
  Scheduler kind() const override { return Scheduler::Lsf; }
  using SchedulerClient::submit;
  std::string submit(const std::string& script, const std::string& dir,
                     const JobDeps& after) override;
  QueryResult query(const std::vector<std::string>& job_ids) override;
  void cancel(const std::vector<std::string>& job_ids) override;
  // "123" + 4 -> "123[5]": LSF's array indices start at 1, aerun's tasks at 0.
  std::string task_id(const std::string& base, int index) const override;
  // "123[5]" -> "123".
  std::string base_id(const std::string& job_id) const override;
  // LSF's words while its batch daemon is out of reach or busy (the defaults of
  // LSB_MBD_BUSY_MSG, LSB_MBD_CONNECT_FAIL_MSG, LSB_MBD_DOWN_MSG: "... Please wait...").
  bool transient(const std::string& message) const override;
  // "Job array index too large" (LSBE_BIG_IDX); the per-user, -group and -project job limits.
  Refusal refusal(const std::string& message) const override;
  std::string queue_limit_command() const override { return "busers -w; bqueues -l"; }
  // `bjobs -a -J NAME -json -o jobid`: the job of this name, if LSF holds one.
  std::optional<std::string> find_job(const std::string& name) override;
  // MAX_JOB_ARRAY_SIZE from `bparams -a` (LSF's default 1,000 when it does not say).
  ArrayLimit array_limit(const std::string& queue) override;

 private:
  std::optional<ArrayLimit> limit_;
};

// The job id in bsub's answer: "Job <2329803> is submitted to default queue <research-rh6>." on
// any line (a site's esub may print lines before it); "" when none.
std::string lsf_submitted_id(const std::string& out);

// Parses `bjobs -json -o "jobid jobindex stat exit_code exit_reason pend_reason submit_time
// start_time finish_time exec_host"`: {"COMMAND":"bjobs","JOBS":N,"RECORDS":[{...}]}, values all
// strings ("" when empty); lines LSF prints before the JSON ("LSF is processing your request.
// Please wait ...") are skipped. A record without STAT (an ERROR) is no job. Throws
// SchedulerError for text that holds no such JSON.
std::vector<JobReport> parse_bjobs_json(const std::string& out);

// bjobs' times: "Dec 28 19:56", with the year when it is not this one ("Feb 21 00:02 2019") and a
// letter after it (L, E, F: how LSF got the time); local time. nullopt when unparsable.
std::optional<double> parse_lsf_time(const std::string& text);

}  // namespace aerun
