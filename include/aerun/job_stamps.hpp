// The stamps a job script leaves beside its run's log: when and where the job started, when the
// run printed its first line and its first training step, when and how it ended.
//   start <epoch> <host> <job id>
//   first_output <epoch>       (only when the case measures startup)
//   first_step <epoch>         (idem)
//   end <epoch> <exit code>
#pragma once

#include <optional>
#include <string>

namespace aerun {

struct JobStamps {
  std::optional<double> start;
  std::string host;
  std::string job_id;
  std::optional<double> first_output;
  std::optional<double> first_step;
  std::optional<double> end;
  std::optional<int> exit_code;
};

// Reads the stamps file; a missing file or unreadable lines leave fields empty.
JobStamps read_job_stamps(const std::string& path);

// The stamps file of a run's log: "x.log" -> "x.stamps".
std::string stamps_path(const std::string& log_path);

// Copies `in` to `out` and appends `first_output <epoch>` and, at the first line matching the
// RE2 pattern `first_step` (if non-empty), `first_step <epoch>` to the stamps file: the job
// side of `aerun stamp-output`. Returns false when the stamps file cannot be written.
bool stamp_output(int in_fd, int out_fd, const std::string& stamps_file,
                  const std::string& first_step);

}  // namespace aerun
