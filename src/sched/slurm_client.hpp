// Slurm through its commands: sbatch --parsable, squeue (every job and array task in one call),
// scancel, and sacct for ended jobs where the cluster keeps accounting (many sites do not).
#pragma once

#include "aerun/sched/scheduler_client.hpp"

namespace aerun {

class SlurmClient : public SchedulerClient {
 public:
  Scheduler kind() const override { return Scheduler::Slurm; }
  using SchedulerClient::submit;
  std::string submit(const std::string& script, const std::string& dir,
                     const JobDeps& after) override;
  // `squeue -h -r -t all -j ID,ID,... -O JobArrayID,State,Reason,exit_code,StartTime,EndTime`.
  QueryResult query(const std::vector<std::string>& job_ids) override;
  void cancel(const std::vector<std::string>& job_ids) override;
  std::string task_id(const std::string& base, int index) const override;
  std::string base_id(const std::string& job_id) const override;
  // sbatch's words for a controller that is busy or out of reach (src/common/slurm_errno.c);
  // sbatch itself already retried EAGAIN and a full queue (src/sbatch/sbatch.c, 15 times).
  bool transient(const std::string& message) const override;
  // "Invalid job array specification" (an array past MaxArraySize); "Job violates
  // accounting/QOS policy" (ESLURM_ACCOUNTING_POLICY: MaxSubmitJobs/MaxJobs of an association or
  // QOS, src/common/slurm_errno.c).
  Refusal refusal(const std::string& message) const override;
  std::string queue_limit_command() const override {
    return "sacctmgr show assoc user=$USER format=MaxSubmit,MaxJobs";
  }
  // `squeue --me --name=NAME`: the job's (array's base) id.
  std::optional<std::string> find_job(const std::string& name) override;
  // MaxArraySize from `scontrol show config`, or the user's associations' MaxSubmitJobs from
  // `sacctmgr show assoc` when smaller and the cluster keeps accounting (asked once).
  ArrayLimit array_limit(const std::string& queue) override;
  // `sacct -n -P --noconvert -j IDS -o JobID,State,ExitCode,Start,End,NodeList,MaxRSS` (epoch
  // times), 1,000 ids a call; "Slurm accounting storage is disabled" stops asking.
  std::optional<std::vector<JobReport>> accounting(
      const std::vector<std::string>& job_ids) override;

 private:
  std::optional<ArrayLimit> limit_;
  bool no_accounting_ = false;
};

// Parses sacct's `--parsable2 --noconvert` rows of JobID|State|ExitCode|Start|End|NodeList|MaxRSS
// (times in epoch seconds, SLURM_TIME_FORMAT=%s): one report per job or array task row, its
// steps' (`.batch`, `.0`, `.extern`) largest MaxRSS (bytes) as max_rss_kb. "CANCELLED by 0" is
// the state CANCELLED with the reason "by 0"; Unknown / None times and "None assigned" nodes are
// left unset.
std::vector<JobReport> parse_sacct(const std::string& out);

// Parses squeue's `-O JobArrayID:|,State:|,Reason:|,exit_code:|,StartTime:|,EndTime:|` lines.
// exit_code is `exit:signal` since Slurm 23.02 and the raw wait status before
// (parse_slurm_exit_code); both are read into JobReport::exit_code and ::signal.
std::vector<JobReport> parse_squeue(const std::string& out);

// Slurm's local-time stamps ("2024-05-01T10:00:00"); nullopt for N/A, Unknown, None.
std::optional<double> parse_slurm_time(const std::string& text);

}  // namespace aerun
