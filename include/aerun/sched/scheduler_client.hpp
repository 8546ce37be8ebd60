// Talking to a batch scheduler: submit a job script, ask about many jobs in one call, cancel.
// Slurm (slurm_client.hpp) and PBS Pro (pbs_client.hpp) implement it with their own commands.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerun/cluster/cluster.hpp"
#include "aerun/sched/job_state.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

// The scheduler refused or could not be reached; what() carries its own message.
class SchedulerError : public SystemError {
 public:
  using SystemError::SystemError;
};

// One job, or one task of a job array, as the scheduler reports it.
struct JobReport {
  std::string job_id;            // as runs store it: "12", "12_3", "12[3].server"
  std::string state;             // the scheduler's own word: PENDING, TIMEOUT, R, F, ...
  std::string reason;            // its reason, comment or exit status text
  std::optional<int> exit_code;  // the script's exit code 0..255, when it said
  std::optional<int> signal;     // the signal that killed it, when it said (Slurm "0:9", PBS
                                 // Exit_status 256 + signal)
  std::optional<double> start_time, end_time;  // epoch seconds, when it said
  std::string nodes;   // the nodes it runs on, comma-separated Slurm hostlist or PBS hosts
  RunState run_state;  // what the state means for the run (job_state.hpp)
};

// The answer to one query: ok=false when the scheduler could not be asked (controller down):
// then nothing may be concluded about any job.
struct QueryResult {
  bool ok = false;
  std::string error;
  std::vector<JobReport> jobs;  // jobs the scheduler no longer knows are simply absent

  const JobReport* find(const std::string& job_id) const;
};

class SchedulerClient {
 public:
  virtual ~SchedulerClient() = default;
  virtual Scheduler kind() const = 0;
  // Submits the script (from dir); returns the job id (an array's base id). after_ok: jobs it
  // starts only after, once each ended with exit 0 (when one fails it is never started: Slurm
  // --kill-on-invalid-dep, PBS deletes it). Throws SchedulerError with the scheduler's message
  // when it is rejected or the command is missing.
  virtual std::string submit(const std::string& script, const std::string& dir,
                             const std::vector<std::string>& after_ok) = 0;
  std::string submit(const std::string& script, const std::string& dir) {
    return submit(script, dir, {});
  }
  // Every job and array task of these ids (as submit() returned them) in one scheduler call.
  virtual QueryResult query(const std::vector<std::string>& job_ids) = 0;
  // Cancels these jobs (whole arrays for base ids). Throws SchedulerError.
  virtual void cancel(const std::vector<std::string>& job_ids) = 0;
  // The id of task `index` of the array submitted as `base`.
  virtual std::string task_id(const std::string& base, int index) const = 0;
  // The id to query or cancel for a stored run's job id (its array's base id for a task).
  virtual std::string base_id(const std::string& job_id) const = 0;
};

// The client for slurm or pbs (InputError for none).
std::unique_ptr<SchedulerClient> make_scheduler_client(Scheduler s);

}  // namespace aerun
