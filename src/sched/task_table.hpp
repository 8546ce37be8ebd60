// The task table of a job array: one line per array task, beside the job script, so that the
// script keeps one size whatever the number of runs (Slurm refuses a batch script past
// max_script_size, 4 MB by default) and each task reads its own row.
#pragma once

#include <string>
#include <string_view>

#include "sched/job_script.hpp"

namespace aerun {

// A value as one field of a row: `\` written `\\`, control characters (newline, tab, the field
// separator 0x1f, ...) and DEL as `\xNN`. bash's `printf '%b'` gives the value back, and no value
// can end a row, split a field or run code: the script never evaluates a row.
std::string task_field(std::string_view value);

// The table: a header line, then one row per run of req (array task i = row i + 1 after the
// header). Fields, split by the byte 0x1f: key, repeat, attempt, log, stamps, stall, first step,
// run directory, command.
std::string task_table(const JobScriptRequest& req);

// The script lines that read task $aerun_task's row of req.tasks_path into AERUN_RUN_KEY,
// AERUN_REPEAT, AERUN_ATTEMPT, AERUN_LOG, AERUN_STAMPS, aerun_stall, aerun_first_step,
// AERUN_RUNDIR and AERUN_COMMAND; a task with no row exits 96.
std::string task_table_block(const JobScriptRequest& req);

}  // namespace aerun
