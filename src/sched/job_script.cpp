// The placeholder values of a job script and its rendering from a template file.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "aerun/launch/launcher_args.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/sched/scheduler_backend.hpp"
#include "aerun/util/shell_quote.hpp"
#include "sched/job_script.hpp"
#include "sched/task_table.hpp"

namespace aerun {

namespace {

std::string opt(const std::optional<int>& v) {
  return v ? std::to_string(*v) : "";
}

// The variables of the run this task makes: an array's come from its task table (the script
// keeps one size), a single run's are written in the script, as `case "$aerun_task" in 0) ...`.
std::string runs_block(const CaseSpec& spec, const JobScriptRequest& req) {
  if (req.runs.size() > 1) {
    if (req.tasks_path.empty()) throw std::logic_error("a job array needs a task table");
    return task_table_block(req);
  }
  std::string out = "case \"$aerun_task\" in\n";
  for (size_t i = 0; i < req.runs.size(); ++i) {
    const ScriptRun& r = req.runs[i];
    out += fmt::format(
        "  {})\n    AERUN_RUN_KEY={}\n    AERUN_REPEAT={}\n    AERUN_ATTEMPT={}\n    AERUN_LOG={}\n"
        "    AERUN_STAMPS={}\n    AERUN_COMMAND={}\n",
        i, shell_quote(r.key), r.repeat_index, r.attempt, shell_quote(r.log_path),
        shell_quote(r.stamps_path), shell_quote(r.command));
    // Watchdogs that vary per point: this task's own values for the output wrapper.
    if (!spec.stall_template.empty()) out += fmt::format("    aerun_stall={:g}\n", r.stall_s);
    if (!spec.first_step_template.empty())
      out += fmt::format("    aerun_first_step={:g}\n", r.first_step_s);
    if (!r.rundir.empty()) out += fmt::format("    AERUN_RUNDIR={}\n", shell_quote(r.rundir));
    out += "    ;;\n";
  }
  out +=
      "  *)\n    echo \"aerun: this job has no run for task $aerun_task\" >&2\n    exit 96\n    "
      ";;\n";
  out += "esac\nexport AERUN_RUN_KEY AERUN_REPEAT AERUN_ATTEMPT";
  return out;
}

// The case's environment; with `rundir:`, then the move into the run's own directory (made ready
// by aerun when it submitted the job), so that every template, the user's too, runs it there.
// Python's output line by line unless the job's environment or the case says otherwise (see
// child_environment in run/case_runner.cpp).
std::string env_block(const CaseSpec& spec, const JobScriptRequest& req) {
  std::string out = "export AERUN_CASE=" + shell_quote(spec.name) +
                    "\nexport PYTHONUNBUFFERED=\"${PYTHONUNBUFFERED-1}\"";
  // The system's set-up (`--system`: its module lines, setup lines, variables), then the case's.
  if (!spec.system.empty()) out += "\nexport AERUN_SYSTEM=" + shell_quote(spec.system);
  for (const std::string& line : spec.system_setup) out += "\n" + line;
  for (const auto& [name, value] : req.env) out += "\nexport " + name + "=" + shell_quote(value);
  for (const auto& [name, value] : spec.env)
    out += "\nexport " + name + "=" + shell_quote(value.text());
  if (spec.rundir)
    out +=
        "\nexport AERUN_RUNDIR\ncd \"$AERUN_RUNDIR\" || { printf 'end %s 97\\n' \"$(date "
        "+%s.%N)\" >>\"$AERUN_STAMPS\"; exit 97; }";
  return out;
}

// Discovery inside the allocation: `aerun env` prints the launch line for the job's own hosts and
// GPUs, defining `launch` (a function) and DIST_LAUNCH for the command.
std::string launch_block(const CaseSpec& spec, const JobScriptRequest& req) {
  if (!spec.launcher) return "";
  LauncherSpec l = req.launcher ? *req.launcher : *spec.launcher;
  if (!l.gpus_per_node) l.gpus_per_node = job_resources(spec, req).gpus_per_node;
  std::vector<std::string> argv{req.aerun_binary, "env", "--scheduler", to_string(req.scheduler)};
  for (auto& a : to_args(l)) argv.push_back(std::move(a));
  argv.push_back("--format=sh");
  std::string cmd;
  for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
  return "if ! aerun_env=$(" + cmd +
         "); then\n  printf 'end %s 98\\n' \"$(date +%s.%N)\" >>\"$AERUN_STAMPS\"\n  exit 98\nfi\n"
         "eval \"$aerun_env\"";
}

// Runs the command; sets aerun_rc. With a first-step pattern the output goes through
// `aerun stamp-output`, which stamps the first output line and the first training step.
std::string run_block(const CaseSpec& spec, const JobScriptRequest& req) {
  const std::string shell = shell_quote(spec.shell);
  const bool watch = spec.stall_on() || spec.first_step_on();
  if (spec.startup.first_step.empty() && !watch)
    return shell + " -c \"$AERUN_COMMAND\" 2>&1\naerun_rc=$?";
  std::string wrapper = shell_quote(req.aerun_binary) + " stamp-output \"$AERUN_STAMPS\" " +
                        shell_quote(spec.startup.first_step);
  // The watchdogs run inside the job: no login node needs to see its processes.
  if (spec.stall_on()) {
    for (const auto& m : spec.metrics) {
      if (!m.progress) continue;
      wrapper += " --progress " + shell_quote(m.pattern);
      for (const auto& alt : m.alternatives) wrapper += " --progress " + shell_quote(alt.pattern);
    }
    wrapper += spec.stall_template.empty() ? fmt::format(" --stall {:g}", spec.stall_s)
                                           : std::string(" --stall \"$aerun_stall\"");
  }
  if (!spec.first_step_template.empty())
    wrapper += " --first-step \"$aerun_first_step\"";
  else if (spec.first_step_s > 0)
    wrapper += fmt::format(" --first-step {:g}", spec.first_step_s);
  return "{ " + shell + " -c \"$AERUN_COMMAND\" 2>&1; } | " + wrapper +
         "\naerun_rc=${PIPESTATUS[0]}";
}

}  // namespace

std::map<std::string, std::string> job_script_vars(const CaseSpec& spec,
                                                   const JobScriptRequest& req) {
  const ResourcesSpec& r = job_resources(spec, req);
  std::map<std::string, std::string> v;
  v["case"] = spec.name;
  v["case_file"] = printable(spec.file);  // it goes into a comment line: one line, always
  v["scheduler"] = scheduler_backend(req.scheduler).name();
  v["job_name"] = req.job_name;
  v["output"] = req.output;
  v["directives"] = scheduler_directives(spec, req);
  if (!v["directives"].empty() && v["directives"].back() == '\n') v["directives"].pop_back();
  v["nodes"] = opt(r.nodes);
  v["gpus_per_node"] = opt(r.gpus_per_node);
  v["tasks_per_node"] = opt(r.tasks_per_node);
  v["cpus_per_task"] = opt(r.cpus_per_task);
  v["walltime"] = r.walltime_s > 0 ? format_walltime(r.walltime_s) : "";
  v["queue"] = r.queue;
  v["account"] = r.account;
  v["constraint"] = r.constraint;
  v["hint"] = r.hint;
  v["filesystems"] = r.filesystems;
  v["place"] = r.place;
  v["runs_count"] = std::to_string(req.runs.size());
  const SchedulerBackend& backend = scheduler_backend(req.scheduler);
  v["task_index"] = backend.task_index_expression();
  v["job_id"] = backend.job_id_expression();
  v["runs"] = runs_block(spec, req);
  v["workdir"] = spec.workdir;
  v["shell"] = spec.shell;
  v["aerun"] = req.aerun_binary;
  v["env"] = env_block(spec, req);
  v["launch"] = launch_block(spec, req);
  v["run"] = run_block(spec, req);
  return v;
}

namespace {

// The folder of the shipped templates: $AERUN_TEMPLATES, else ../share/aerun/templates beside the
// running binary (an installed aerun), else the source tree's (a build not installed).
std::string templates_dir() {
  if (const char* e = std::getenv("AERUN_TEMPLATES"); e && *e) return e;
  std::error_code ec;
  const auto installed =
      std::filesystem::path(self_binary()).parent_path().parent_path() / "share/aerun/templates";
  if (std::filesystem::is_directory(installed, ec)) return installed.string();
  return AERUN_SOURCE_DIR "/templates";
}

}  // namespace

std::string job_template_path(const CaseSpec& spec, Scheduler scheduler) {
  if (!spec.resources.template_path.empty()) return spec.resources.template_path;
  const std::string dir = templates_dir();
  return dir + "/" + std::string(scheduler_backend(scheduler).template_file());
}

std::string render_job_script(const CaseSpec& spec, const JobScriptRequest& req) {
  for (const std::string* p : {&req.output, &req.job_name})
    if (p->find_first_of(" \t\r\n'\"\\") != std::string::npos)
      throw InputError(SourceLoc{}, "resources",
                       "job name and output path may hold no whitespace or quotes: '" + *p + "'");
  const std::string path = job_template_path(spec, req.scheduler);
  std::ifstream in(path);
  if (!in)
    throw InputError(spec.resources.template_path.empty() ? SourceLoc{} : spec.resources.loc,
                     "resources.template", "cannot read job-script template " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return fill_template(text.str(), job_script_vars(spec, req), path);
}

}  // namespace aerun
