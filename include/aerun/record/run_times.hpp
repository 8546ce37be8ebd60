// The times of a run that tables and their formulas can name: instants and durations.
#pragma once

#include <optional>
#include <string_view>

#include "aerun/record/run_record.hpp"

namespace aerun {

// A stored time of a run under the name a case file uses for it. Instants are epoch seconds
// (tables print them as calendar time); durations are seconds.
struct RunTime {
  std::string_view name;
  bool instant;
  std::optional<double> RunRecord::*field;
  std::string_view meaning;  // for docs and error messages
  std::string_view column;   // the store's column of runs (and RunRecord field) it is read from
};

inline constexpr RunTime kRunTimes[] = {
    {"start", true, &RunRecord::launch_time,
     "when the run started: aerun's launch, a batch job's start, an ingested log's job-start "
     "stamp",
     "launch_time"},
    {"first_output", true, &RunRecord::first_output_time, "the run's first output line",
     "first_output_time"},
    {"first_step", true, &RunRecord::startup_time,
     "the first training step (the startup pattern; an ingested log's step stamp)", "startup_time"},
    {"end", true, &RunRecord::end_time, "when the run ended (an ingested log: its mtime)",
     "end_time"},
    {"submit", true, &RunRecord::submit_time, "when aerun submitted the batch job", "submit_time"},
    {"job_start", true, &RunRecord::job_start_time, "when the batch job script started",
     "job_start_time"},
    {"startup_s", false, &RunRecord::startup_s, "first_step - start", "startup_s"},
    {"wall_s", false, &RunRecord::wall_s, "end - start", "wall_s"},
    {"queue_wait_s", false, &RunRecord::queue_wait_s, "job_start - submit", "queue_wait_s"},
};

// The run time called `name`, or nullptr.
inline const RunTime* find_run_time(std::string_view name) {
  for (const RunTime& t : kRunTimes)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace aerun
