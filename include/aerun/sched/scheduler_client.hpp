// Talking to a batch scheduler: submit a job script, ask about many jobs in one call, cancel.
// Slurm (slurm_client.hpp) and PBS Pro (pbs_client.hpp) implement it with their own commands.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
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
// What a scheduler said (a job's reason or comment, a refusal) as aerun keeps and shows it: the
// values of keys named for secrets redacted (redacted_log_text; a job's comment is anyone's
// text), and at most 1 KiB, cut at a character (issue 40's fourth pass: a 100 KB reason).
std::string scheduler_words(std::string_view text);

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
  // The largest resident memory of its steps, from the scheduler's accounting (sacct MaxRSS).
  std::optional<long long> max_rss_kb;
};

// The answer to one query: ok=false when the scheduler could not be asked (controller down):
// then nothing may be concluded about any job.
struct QueryResult {
  bool ok = false;
  std::string error;
  std::vector<JobReport> jobs;  // jobs the scheduler no longer knows are simply absent

  const JobReport* find(const std::string& job_id) const;
};

// How many tasks one job array may have, as the scheduler says (Slurm `scontrol show config`:
// MaxArraySize, indices 0..N-1; PBS `qmgr`: the server's and the queue's max_array_size, 10,000
// when unset), or as $AERUN_MAX_ARRAY_SIZE says for a site that hides it. 0: arrays are off.
struct ArrayLimit {
  std::optional<int> tasks;  // nullopt: nobody said (no limit is assumed)
  std::string source;        // where the figure comes from, for messages
};

// The jobs a submission waits for: `ok` until each ended with exit 0 (when one fails it never
// starts: Slurm --kill-on-invalid-dep, PBS deletes it); `any` until each ended, however.
struct JobDeps {
  std::vector<std::string> ok, any;
  bool empty() const { return ok.empty() && any.empty(); }
};

// What a refused submission's message says, in the scheduler's own words.
enum class Refusal {
  Other,          // the job itself, or a reason aerun does not know
  ArrayTooLarge,  // more array tasks than the cluster takes (Slurm MaxArraySize, PBS
                  // max_array_size)
  QueueLimit,     // a limit on the jobs of a user, group or project in the queue
};

class SchedulerClient {
 public:
  virtual ~SchedulerClient() = default;
  virtual Scheduler kind() const = 0;
  // Submits the script (from dir); returns the job id (an array's base id). It starts only after
  // the jobs of `after`. Throws SchedulerError with the scheduler's message when it is rejected
  // or the command is missing.
  virtual std::string submit(const std::string& script, const std::string& dir,
                             const JobDeps& after) = 0;
  std::string submit(const std::string& script, const std::string& dir) {
    return submit(script, dir, JobDeps{});
  }
  // Every job and array task of these ids (as submit() returned them) in one scheduler call.
  virtual QueryResult query(const std::vector<std::string>& job_ids) = 0;
  // Cancels these jobs (whole arrays for base ids). Throws SchedulerError.
  virtual void cancel(const std::vector<std::string>& job_ids) = 0;
  // The id of task `index` of the array submitted as `base`.
  virtual std::string task_id(const std::string& base, int index) const = 0;
  // The id to query or cancel for a stored run's job id (its array's base id for a task).
  virtual std::string base_id(const std::string& job_id) const = 0;
  // Whether a refused submission's message says the scheduler was busy or out of reach (worth
  // trying again), not that the job is wrong.
  virtual bool transient(const std::string& message) const {
    (void)message;
    return false;
  }
  // Which limit, if any, a refused submission's message names.
  virtual Refusal refusal(const std::string& message) const {
    (void)message;
    return Refusal::Other;
  }
  // The command that shows the queue limits of the user's jobs, for a message ("" when none).
  virtual std::string queue_limit_command() const { return ""; }
  // The id of a job of this name the scheduler holds (an array's base id), if any: a submission
  // whose answer was lost may have been taken all the same. nullopt: none, or it cannot tell.
  virtual std::optional<std::string> find_job(const std::string& name) {
    (void)name;
    return std::nullopt;
  }
  // The scheduler's accounting of these jobs or array tasks (Slurm: sacct, when slurmdbd keeps
  // it): final state, exit code, times, nodes and peak memory, also for jobs the queue no longer
  // shows. Jobs it does not know (yet) are absent; nullopt when the cluster keeps no accounting
  // or it could not be asked (never throws: the queue and the job's own stamps remain).
  virtual std::optional<std::vector<JobReport>> accounting(
      const std::vector<std::string>& job_ids) {
    (void)job_ids;
    return std::nullopt;
  }
  // The array limit for a submission to queue ("": the default one), asked of the scheduler once
  // per queue and remembered; never throws (a question nobody answers gives no limit).
  virtual ArrayLimit array_limit(const std::string& queue) {
    (void)queue;
    return {};
  }
};

// The number on a `NAME = N` line of a scheduler's settings listing (`scontrol show config`:
// "MaxArraySize            = 1001"; `qmgr -c 'list server'`: "    max_array_size = 10000");
// nullopt when no such line holds a whole number.
std::optional<long> setting_number(const std::string& listing, const std::string& name);

// $AERUN_MAX_ARRAY_SIZE when set (InputError for what is not a number 0..4000001), else the
// client's array_limit(queue) when there is a client, else none.
ArrayLimit array_limit(SchedulerClient* client, const std::string& queue);

// The client for slurm or pbs (InputError for none).
std::unique_ptr<SchedulerClient> make_scheduler_client(Scheduler s);

}  // namespace aerun
