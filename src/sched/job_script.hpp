// Job scripts: a template (templates/slurm.sbatch, pbs.sh, local.sh, or the case's own) filled
// from the case's `resources` and the runs the job makes. One script holds one run, or a whole
// sweep as a job array whose task index picks the run.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/cluster/cluster.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

// One run inside a job script (array task `index` = its position in JobScriptRequest::runs).
struct ScriptRun {
  std::string key;
  int repeat_index = 0;
  std::string command;   // shell-ready
  std::string log_path;  // where its output goes (the scheduler's output file)
  std::string stamps_path;
  int attempt = 1;  // AERUN_ATTEMPT
  // Its watchdogs (0 = off), used when the case's vary per point (`stall: "{stall}"`).
  double stall_s = 0;
  double first_step_s = 0;
  std::string rundir = {};  // its own directory (case `rundir:`), where it runs; "": none
};

// What a job script is made of besides the case.
struct JobScriptRequest {
  Scheduler scheduler = Scheduler::None;  // None renders templates/local.sh
  std::string job_name;
  std::string output;           // the scheduler's output path (%a / ^array_index^ for arrays)
  std::vector<ScriptRun> runs;  // more than one: a job array over them
  std::string tasks_path;       // an array's task table (task_table()), written beside the script
  int array_cap = 0;            // array tasks at once (0 = no cap)
  EnvVars env;                  // exported before the run (after the case's env)
  std::string aerun_binary;     // for `aerun env` (launch line) and `aerun stamp-output`
  const ResourcesSpec* resources = nullptr;  // the job's (its point's); null: the case's
  const LauncherSpec* launcher = nullptr;    // the job's (its point's counts); null: the case's
};

// What the job asks for: the request's resources, else the case's.
// The walltime a job gets from a case's `timeout:` when `resources:` gives none: the timeout plus
// 10 % and at least 5 minutes, rounded up to whole minutes.
double default_walltime(double timeout_s);

inline const ResourcesSpec& job_resources(const CaseSpec& spec, const JobScriptRequest& req) {
  return req.resources ? *req.resources : spec.resources;
}

// Fills `{{name}}` (the value as it is) and `{{name|q}}` (shell-quoted) placeholders. A line that
// holds only a placeholder whose value is empty is dropped. Throws InputError
// "<template_name>:<line>: template: unknown placeholder {{x}} (known: ...)".
std::string fill_template(std::string_view text, const std::map<std::string, std::string>& vars,
                          const std::string& template_name);

// The `#SBATCH` / `#PBS` lines for the case's resources (job name and output excluded), the
// array line for several runs. Throws InputError (at spec.resources.loc) for a resource the
// scheduler cannot express (constraint or hint under PBS).
std::string scheduler_directives(const CaseSpec& spec, const JobScriptRequest& req);

// Every placeholder value of a job script (see docs/schedulers.md for the list).
std::map<std::string, std::string> job_script_vars(const CaseSpec& spec,
                                                   const JobScriptRequest& req);

// The template used: the case's resources.template, else <templates dir>/slurm.sbatch, pbs.sh
// or local.sh, the templates dir being $AERUN_TEMPLATES or the source tree's templates/.
std::string job_template_path(const CaseSpec& spec, Scheduler scheduler);

// Reads the template and fills it. Throws InputError when the template cannot be read.
std::string render_job_script(const CaseSpec& spec, const JobScriptRequest& req);

// "HH:MM:SS" with hours past 24 as they are (both Slurm and PBS accept it), rounded up to whole
// seconds.
std::string format_walltime(double seconds);

}  // namespace aerun
