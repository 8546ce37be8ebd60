// One way of running a case's jobs, as aerun drives it: a batch scheduler (Slurm, PBS) or the
// local shell. Everything aerun says to or reads from one scheduler — its job-script directives
// and template, the variables its jobs see, how a job's runs become its steps, its client for
// submit, poll, cancel and accounting — is in that backend's own files (src/sched/<name>_*.cpp),
// and the backends are found by name in one registry (scheduler_registry.cpp), in the manner of
// ReFrame's `register_scheduler`. Nothing else branches on which scheduler it has.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "aerun/case/resources_spec.hpp"
#include "aerun/sched/scheduler_client.hpp"
#include "aerun/util/scheduler_kind.hpp"

namespace aerun {

// The array a job script is for: `tasks` runs (1: a plain job), at most `cap` at once (0: no cap).
// The job's name goes with it: LSF names an array by it ("name[1-N]%cap").
struct JobArray {
  size_t tasks = 1;
  int cap = 0;
  std::string job_name;
};

class SchedulerBackend {
 public:
  virtual ~SchedulerBackend() = default;
  virtual Scheduler kind() const = 0;
  // Its name in case files, `--scheduler` and the store ("slurm", "pbs", "local").
  virtual std::string_view name() const = 0;

  // The job script: the file name's extension, the shipped template (under templates/), and the
  // directive lines for these resources (empty for none). Throws InputError at r.loc for a
  // resource the scheduler cannot express.
  virtual std::string_view script_extension() const = 0;
  virtual std::string_view template_file() const = 0;
  virtual std::string directives(const ResourcesSpec& r, const JobArray& array) const = 0;
  // A job name it accepts, made from aerun's.
  virtual std::string job_name(const std::string& name) const { return name; }

  // Shell words of a job script: the task's index in its array (0 for a plain job) and the job's
  // id, as the scheduler hands them to the job; how a person runs task N of a script by hand.
  virtual std::string_view task_index_expression() const = 0;
  virtual std::string_view job_id_expression() const = 0;
  virtual std::string_view by_hand() const = 0;
  // Whether a sweep can go out as one job array (Flux's `flux batch` has none: a job per run).
  virtual bool has_arrays() const { return true; }
  // The cluster's setting that bounds an array's tasks, for messages.
  virtual std::string_view array_limit_setting() const { return "largest array"; }
  // What the scheduler replaces by the task's index in an array job's output path.
  virtual std::string_view array_task_token() const { return "%a"; }

  // The variable that holds the id of the allocation aerun itself runs in ("" for none).
  virtual std::string_view allocation_variable() const { return ""; }
  // A command without a launcher of its own as a step of the allocation, sized by its point's
  // resources; nullopt where the scheduler has no steps (the command runs as it is).
  virtual std::optional<std::string> job_step(const ResourcesSpec& r) const {
    (void)r;
    return std::nullopt;
  }

  // The client that submits, polls, cancels and asks the accounting; InputError for a backend
  // that is no batch scheduler.
  virtual std::unique_ptr<SchedulerClient> client() const = 0;
};

// The backend of a scheduler kind (None: the local shell).
const SchedulerBackend& scheduler_backend(Scheduler s);
// The backend of this name, or nullptr.
const SchedulerBackend* find_scheduler_backend(std::string_view name);
// Every registered backend, the local one last.
std::span<const SchedulerBackend* const> scheduler_backends();

}  // namespace aerun
