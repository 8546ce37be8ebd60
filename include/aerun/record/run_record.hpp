// One run as the store keeps it: what was run, what happened, what was measured.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aerun/util/value.hpp"

namespace aerun {

// The log_state of a log aerun did not write: an ingested run's log (the user's own file) or an
// attempt merged from another store (a path on another machine, or one naming a file here by
// chance). `prune` and `forget` never touch such a file (issue 28).
inline constexpr const char* kForeignLog = "foreign";

// A reduced metric of a run, traceable to the log line it came from.
struct MetricValue {
  std::string name;
  double value = 0;
  std::string unit;
  long long count = 0;        // how many matches were reduced (after skip)
  long long source_line = 0;  // line of the log the value (or last value) came from
};

// One point of a metric series (e.g. the loss curve).
struct SeriesPoint {
  long long index = 0;  // 0-based index of the match
  double value = 0;
  long long source_line = 0;
};

struct MetricSeries {
  std::string name;
  std::vector<SeriesPoint> points;
};

// Run statuses: the judge's (run_judge.hpp), "running" while an aerun process runs it, "stale"
// when that process is gone (its claim may be taken over); batch jobs add "pending",
// "submit_failed".
struct RunRecord {
  long long id = 0;
  std::string key;  // stable hash of case, resolved command, parameters, env, repeat
  std::string case_name;
  std::string case_file;
  int repeat_index = 0;
  int attempt = 1;
  std::string status;
  std::string reason;   // why: the matching line, the signal, "exit code 3", ...
  std::string command;  // fully expanded, shell-ready
  std::string workdir;
  std::string rundir;  // the run's own directory (case `rundir:`), where it ran; "" = the workdir
  ParamList params;
  ParamList env;

  // Wall-clock times as Unix epoch seconds (fractional); nullopt when not reached.
  std::optional<double> launch_time;
  std::optional<double> first_output_time;
  std::optional<double> startup_time;  // when the startup pattern was seen
  std::optional<double> end_time;
  std::optional<double> startup_s;  // startup_time - launch_time
  std::optional<double> wall_s;     // end_time - launch_time

  std::optional<int> exit_code;
  std::optional<int> signal;
  double user_cpu_s = 0;
  double sys_cpu_s = 0;
  long long max_rss_kb = 0;

  std::string host;
  std::string nodes;  // the hosts it ran on: a batch job's node list (Slurm hostlist, PBS
                      // hosts), else the host; "" when unknown (ingested, stored before v10)
  std::string aerun_version;
  std::string git_commit;    // of workdir, when it is a git repository
  std::string case_version;  // CaseSpec::version of the case it ran from ("" for ingested runs)
  std::string case_digest;   // SHA-256 of the case file's text it ran from
  // The system profile it ran under (docs/systems.md; part of its key: system_key.hpp); "" for a
  // run on no named system, or stored before systems were.
  std::string system;
  // The image it ran inside (case `container:`), as named, and its identity as the runtime
  // knows it (image_digest.hpp; "" when none could be found); both "" on the host.
  std::string container_image;
  std::string container_digest;
  int runner_pid = 0;          // the aerun process that ran it (to detect orphaned "running" rows)
  long long runner_start = 0;  // that process's start time (ticks since boot): pids are reused
  std::string runner_boot;     // the boot it ran in
  std::optional<double> heartbeat;  // when the running aerun last said it is alive (epoch s)
  long long session_id = 0;         // the session (aerun invocation) of this attempt; 0 = none

  std::string log_path;
  long long log_size = 0;
  std::string log_sha256;
  // "" (as written), "compressed" (log_path is its .gz), "pruned" (gone), "foreign" (a file aerun
  // did not write: an ingested log, a merged store's path; never compressed or removed)
  std::string log_state;

  std::vector<MetricValue> metrics;
  std::vector<MetricSeries> series;
  // What extraction could not use, counted, one sentence each (Extractor::warnings).
  std::vector<std::string> warnings;

  // Runs made as batch jobs ("" / nullopt for runs aerun ran itself).
  std::string scheduler;                 // "slurm" | "pbs"
  std::string job_id;                    // the run's job: "123", array task "123_4", "123[4].srv"
  std::optional<int> array_index;        // its index in the job array
  std::optional<double> submit_time;     // when aerun submitted it (epoch s)
  std::optional<double> job_start_time;  // when the job script started (its stamp)
  std::optional<double> queue_wait_s;    // job_start_time - submit_time
  std::string scheduler_state;           // the scheduler's own word: PENDING, COMPLETED, TIMEOUT, F
  std::string scheduler_reason;          // the scheduler's reason or exit status, as it gave it

  const MetricValue* metric(const std::string& n) const {
    for (const auto& m : metrics)
      if (m.name == n) return &m;
    return nullptr;
  }
};

}  // namespace aerun
