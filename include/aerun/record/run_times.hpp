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
};

inline constexpr RunTime kRunTimes[] = {
    {"start", true, &RunRecord::launch_time,
     "when the run started: aerun's launch, a batch job's start, an ingested log's job-start "
     "stamp"},
    {"first_output", true, &RunRecord::first_output_time, "the run's first output line"},
    {"first_step", true, &RunRecord::startup_time,
     "the first training step (the startup pattern; an ingested log's step stamp)"},
    {"end", true, &RunRecord::end_time, "when the run ended (an ingested log: its mtime)"},
    {"submit", true, &RunRecord::submit_time, "when aerun submitted the batch job"},
    {"job_start", true, &RunRecord::job_start_time, "when the batch job script started"},
    {"startup_s", false, &RunRecord::startup_s, "first_step - start"},
    {"wall_s", false, &RunRecord::wall_s, "end - start"},
    {"queue_wait_s", false, &RunRecord::queue_wait_s, "job_start - submit"},
};

// The run time called `name`, or nullptr.
inline const RunTime* find_run_time(std::string_view name) {
  for (const RunTime& t : kRunTimes)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace aerun
