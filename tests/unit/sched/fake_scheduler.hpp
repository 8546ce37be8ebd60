// A Slurm-like scheduler in memory, so that the logic of BatchRunner and JobFollower is tested
// without a live Slurm (tests/integration/slurm_*_test.cpp run the real one).
//
// A submitted job is read as sbatch reads it (`#SBATCH --array=0-N`, `#SBATCH --output=`); each
// of its tasks is PENDING at the first query that asks about it, RUNNING at the next, and at the
// one after its script runs with bash, as on a node (SLURM_JOB_ID, SLURM_ARRAY_TASK_ID set, the
// output to the `--output` path with %A/%a/%j filled in), and it is COMPLETED or FAILED with the
// script's exit code. A test can refuse submissions, fail queries, end tasks with another state
// (NODE_FAIL), or make them vanish from the queue.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "aerun/sched/scheduler_client.hpp"
#include "aerun/sched/slurm_states.hpp"
#include "aerun/util/shell_quote.hpp"
#include "sched/slurm_client.hpp"

namespace aerun::testing {

class FakeScheduler : public SchedulerClient {
 public:
  // What a test may change.
  std::string refuse_with;       // non-empty: submit() throws SchedulerError with it
  int failing_queries = 0;       // the next N queries cannot reach the scheduler
  std::set<std::string> vanish;  // task ids that leave the queue instead of running
  std::set<std::string> stuck;   // task ids that stay PENDING (a full cluster)
  std::map<std::string, std::string> end_state;  // task id -> final state instead of the exit's
  // Slurm's MaxArraySize: an array of more tasks is refused as sbatch refuses it. tell_limit:
  // array_limit() says it (as `scontrol show config` does), else the cluster hides it.
  std::optional<int> max_array_size;
  bool tell_limit = true;
  // A busy controller: the next `busy` submissions are refused with sbatch's words for a timeout;
  // with `taken_anyway`, the first of them is taken all the same (its answer lost on the way).
  int busy = 0;
  bool taken_anyway = false;
  // Slurm's MaxSubmitJobs of the user's association: a submission that would put more tasks in
  // the queue (each array task counts) is refused as Slurm refuses it.
  std::optional<int> max_submit_jobs;
  int submit_calls = 0;

  // What the test may look at.
  std::vector<std::string> submitted_scripts;
  std::vector<std::vector<std::string>> dependencies;   // each submission's after.ok ids
  std::vector<std::vector<std::string>> waits_for_end;  // each submission's after.any ids
  int queries = 0;
  size_t most_tasks_in_queue = 0;  // pending or running at once, over all queries

  Scheduler kind() const override { return Scheduler::Slurm; }

  using SchedulerClient::submit;
  std::string submit(const std::string& script, const std::string& dir,
                     const JobDeps& after) override {
    ++submit_calls;
    dependencies.push_back(after.ok);
    waits_for_end.push_back(after.any);
    if (!refuse_with.empty()) throw SchedulerError(refuse_with);
    const bool lost_answer = busy > 0 && taken_anyway;
    if (busy > 0 && !lost_answer) {
      --busy;
      throw SchedulerError(kBusy);
    }
    std::ifstream in(script);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::smatch m;
    const std::string id = std::to_string(next_id_++);
    int tasks = 1;
    bool array = false;
    if (std::regex_search(text, m, std::regex(R"(#SBATCH --array=0-(\d+))"))) {
      tasks = std::stoi(m[1]) + 1;
      array = true;
      if (max_array_size && tasks > *max_array_size)  // the highest index is MaxArraySize - 1
        throw SchedulerError(
            "sbatch rejected the job: sbatch: error: Batch job submission failed: Invalid job "
            "array specification");
    }
    if (max_submit_jobs) {
      int queued = 0;
      for (const Task& t : tasks_)
        queued += !t.gone && (t.state.empty() || t.state == "PENDING" || t.state == "RUNNING");
      if (queued + tasks > *max_submit_jobs)
        throw SchedulerError(
            "sbatch rejected the job: sbatch: error: AssocMaxSubmitJobLimit\nsbatch: error: Batch "
            "job submission failed: Job violates accounting/QOS policy (job submit limit, user's "
            "size and/or time limits)");
    }
    std::string output = id + ".out";
    if (std::regex_search(text, m, std::regex(R"(#SBATCH --output=(\S+))"))) output = m[1];
    for (int i = 0; i < tasks; ++i) {
      Task t;
      t.id = array ? task_id(id, i) : id;
      t.job = id;
      t.index = i;
      t.script = script;
      t.dir = dir;
      t.output = fill(output, id, i);
      tasks_.push_back(t);
    }
    submitted_scripts.push_back(script);
    if (std::regex_search(text, m, std::regex(R"(#SBATCH --job-name=(\S+))"))) names_[m[1]] = id;
    if (lost_answer) {
      --busy;
      taken_anyway = false;
      throw SchedulerError(kBusy);
    }
    return id;
  }

  // Slurm's words, as SlurmClient reads them.
  Refusal refusal(const std::string& message) const override { return slurm_.refusal(message); }
  std::string queue_limit_command() const override { return slurm_.queue_limit_command(); }
  bool transient(const std::string& message) const override {
    return message.find("Socket timed out") != std::string::npos;
  }
  std::optional<std::string> find_job(const std::string& name) override {
    const auto it = names_.find(name);
    return it == names_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  static constexpr const char* kBusy =
      "sbatch rejected the job: sbatch: error: Batch job submission failed: Socket timed out on "
      "send/recv operation";

  ArrayLimit array_limit(const std::string&) override {
    if (!max_array_size || !tell_limit) return {};
    return {*max_array_size, "MaxArraySize = " + std::to_string(*max_array_size)};
  }

  QueryResult query(const std::vector<std::string>& ids) override {
    ++queries;
    QueryResult q;
    if (failing_queries > 0) {
      --failing_queries;
      q.error = "slurm_load_jobs error: Unable to contact slurm controller (connect failure)";
      return q;
    }
    q.ok = true;
    const std::set<std::string> asked(ids.begin(), ids.end());
    size_t in_queue = 0;
    for (Task& t : tasks_) {
      if (!asked.count(t.job) || t.gone) continue;
      advance(t);
      if (t.gone) continue;
      JobReport j;
      j.job_id = t.id;
      j.state = t.state;
      j.exit_code = t.exit_code;
      j.run_state = slurm_run_state(t.state);
      if (!j.run_state.finished) ++in_queue;
      q.jobs.push_back(j);
    }
    most_tasks_in_queue = std::max(most_tasks_in_queue, in_queue);
    return q;
  }

  void cancel(const std::vector<std::string>& ids) override {
    for (Task& t : tasks_)
      for (const auto& id : ids)
        if (t.job == id || t.id == id) t.state = "CANCELLED";
  }
  std::string task_id(const std::string& base, int index) const override {
    return base + "_" + std::to_string(index);
  }
  std::string base_id(const std::string& id) const override { return id.substr(0, id.find('_')); }

 private:
  SlurmClient slurm_;
  std::map<std::string, std::string> names_;  // job name -> id
  struct Task {
    std::string id, job, script, dir, output;
    int index = 0;
    std::string state;  // "" until the first query
    std::optional<int> exit_code;
    bool gone = false;
  };

  static std::string fill(std::string pattern, const std::string& job, int index) {
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"%A", job},
                                   {"%a", std::to_string(index)},
                                   {"%j", job}}) {
      for (size_t p = pattern.find(from); p != std::string::npos; p = pattern.find(from, p))
        pattern.replace(p, from.size(), to);
    }
    return pattern;
  }

  // PENDING -> RUNNING -> (the script runs) COMPLETED / FAILED, one step per query.
  void advance(Task& t) {
    if (t.state.empty()) {
      t.state = "PENDING";
    } else if (t.state == "PENDING") {
      if (stuck.count(t.id)) return;
      if (vanish.count(t.id)) {
        t.gone = true;
        return;
      }
      t.state = "RUNNING";
    } else if (t.state == "RUNNING") {
      const std::string cmd = "cd " + shell_quote(t.dir) + " && SLURM_JOB_ID=" + t.job +
                              " SLURM_ARRAY_JOB_ID=" + t.job +
                              " SLURM_ARRAY_TASK_ID=" + std::to_string(t.index) + " bash " +
                              shell_quote(t.script) + " >" + shell_quote(t.output) + " 2>&1";
      const int status = std::system(cmd.c_str());
      t.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
      const auto forced = end_state.find(t.id);
      t.state = forced != end_state.end() ? forced->second
                : *t.exit_code == 0       ? "COMPLETED"
                                          : "FAILED";
    }
  }

  std::vector<Task> tasks_;
  int next_id_ = 100;
};

}  // namespace aerun::testing
