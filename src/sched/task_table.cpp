// Writing a job array's task table and the script lines that read one row of it.
#include "sched/task_table.hpp"

#include <fmt/format.h>

#include "aerun/sched/scheduler_backend.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {

constexpr char kSeparator = '\x1f';

// The names a row is read into, in column order (the command last: it is the longest).
constexpr const char* kColumns[] = {"AERUN_RUN_KEY",    "AERUN_REPEAT", "AERUN_ATTEMPT",
                                    "AERUN_LOG",        "AERUN_STAMPS", "aerun_stall",
                                    "aerun_first_step", "AERUN_RUNDIR", "AERUN_COMMAND"};

}  // namespace

std::string task_field(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\')
      out += "\\\\";
    else if (u < 0x20 || u == 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

std::string task_table(const JobScriptRequest& req) {
  std::string out =
      "# aerun task table of job " + printable(req.job_name) +
      ": row N+1 (after this line) is array task N. Fields split by the byte 0x1f; \\\\ and \\xNN "
      "are escapes (bash printf %b). Columns: key repeat attempt log stamps stall first_step "
      "rundir command\n";
  for (const ScriptRun& r : req.runs) {
    const std::string fields[] = {r.key,
                                  std::to_string(r.repeat_index),
                                  std::to_string(r.attempt),
                                  r.log_path,
                                  r.stamps_path,
                                  fmt::format("{:g}", r.stall_s),
                                  fmt::format("{:g}", r.first_step_s),
                                  r.rundir,
                                  r.command};
    for (size_t i = 0; i < std::size(fields); ++i) {
      if (i) out += kSeparator;
      out += task_field(fields[i]);
    }
    out += '\n';
  }
  return out;
}

std::string task_table_block(const JobScriptRequest& req) {
  std::string names;
  std::string decode;
  for (const char* c : kColumns) {
    names += std::string(names.empty() ? "" : " ") + c;
    decode += fmt::format("printf -v {0} '%b' \"${0}\"\n", c);
  }
  std::string out = fmt::format(
      "# This job's {} runs are rows of its task table (one line per array task; its header says\n"
      "# how to read it). One task by hand: {}\n"
      "aerun_tasks={}\n"
      "case \"$aerun_task\" in\n"
      "  '' | *[!0-9]*) aerun_row= ;;\n"
      "  *) aerun_row=$(sed -n \"$((10#$aerun_task + 2)){{p;q;}}\" \"$aerun_tasks\") ;;\n"
      "esac\n"
      "if [ -z \"$aerun_row\" ]; then\n"
      "  echo \"aerun: this job has no run for task $aerun_task in $aerun_tasks\" >&2\n"
      "  exit 96\n"
      "fi\n"
      "IFS=$'\\x1f' read -r {} <<<\"$aerun_row\"\n"
      "{}",
      req.runs.size(), scheduler_backend(req.scheduler).by_hand(), shell_quote(req.tasks_path),
      names, decode);
  out += "export AERUN_RUN_KEY AERUN_REPEAT AERUN_ATTEMPT";
  return out;
}

}  // namespace aerun
