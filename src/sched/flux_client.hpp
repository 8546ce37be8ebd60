// Flux through its commands, each run with FLUX_F58_FORCE_ASCII=1 (ids in ASCII whatever the
// locale): `flux batch SCRIPT` (prints the job's F58 id; aerun keeps it in decimal), `flux jobs
// --json ID...` (flux-core 0.49 and later), `flux cancel ID...` (0.48 and later). Flux has no job
// accounting to ask after a job is purged (the job-archive module left in 0.68): a job's end is
// taken from `flux jobs` while it is listed, else from its stamps. No Flux is packaged in Debian:
// the parsing is tested on output recorded from a real flux-core (tests/fixtures/flux/README.md).
#pragma once

#include "aerun/sched/scheduler_client.hpp"

namespace aerun {

class FluxClient : public SchedulerClient {
 public:
  Scheduler kind() const override { return Scheduler::Flux; }
  using SchedulerClient::submit;
  std::string submit(const std::string& script, const std::string& dir,
                     const JobDeps& after) override;
  QueryResult query(const std::vector<std::string>& job_ids) override;
  void cancel(const std::vector<std::string>& job_ids) override;
  // Flux has no arrays: a task id is never asked for; the job's own id is its base.
  std::string task_id(const std::string& base, int index) const override;
  std::string base_id(const std::string& job_id) const override { return job_id; }
  // "Unable to connect to Flux" (the broker is out of reach: flux_open() in every command).
  bool transient(const std::string& message) const override;
  // A queue's job limits: "exceeds policy limit of N for queue Q" (flux-core t2246), and
  // flux-accounting's "user has max active jobs".
  Refusal refusal(const std::string& message) const override;
  std::string queue_limit_command() const override { return "flux config get policy"; }
  // `flux batch` takes no --cc: no arrays (the backend sends a job per run).
  ArrayLimit array_limit(const std::string& queue) override;
};

// Parses `flux jobs --json` output: one object for one id, {"jobs": [...]} for several. Keys that
// are unset are absent (a pending job has no result or returncode). Throws SchedulerError for
// text that is not that JSON.
std::vector<JobReport> parse_flux_jobs_json(const std::string& out);

}  // namespace aerun
