#include "aerun/sched/slurm_states.hpp"

#include <sys/wait.h>

#include <array>
#include <vector>

#include "aerun/judge/run_status.hpp"
#include "aerun/util/text_format.hpp"

namespace aerun {

namespace {

// Slurm's job state words. Sources (SchedMD/slurm, read at tags slurm-1-0-0-1 ... slurm-26-05-0-1
// and master 284c3b95f0): job_state_string(), job_state_string_compact() and
// job_state_string_complete() in src/common/slurm_protocol_defs.c; the meanings are the comments
// of enum job_states and the JOB_* flag bits in slurm/slurm.h, and the descriptions of
// src/plugins/data_parser/v0.0.44/parsers.c (PARSER_FLAG_ARRAY(JOB_STATE)).
// Order: the flags job_state_string() tests first, in its order (a flag hides the base state),
// then the base states, then words only job_state_string_complete() prints.
constexpr std::array<SlurmStateWord, 31> kSlurmWords{{
    // --- flags printed by job_state_string() instead of the base state ---
    {"COMPLETING", "CG", run_status::running, false,
     "Waiting for epilog completion (the job's processes ended; its final state follows)"},
    {"STAGE_OUT", "SO", run_status::running, false,
     "Staging out data (burst buffer) after the job ran; its final state follows (18.08+)"},
    {"CONFIGURING", "CF", run_status::pending, false,
     "Allocated nodes booting: the script has not started yet (2.1+)"},
    {"EXPEDITING", "", run_status::pending, false,
     "Expediting the requeue: checking for expedited requeue, the job goes back to the queue "
     "(25.11+)"},
    {"RESIZING", "RS", run_status::running, false,
     "Size of job about to change (set around a running job's resize) (2.2+)"},
    {"REQUEUED_CRON", "", run_status::pending, false,
     "A scrontab job requeued for its next run (Slurm 20.11 only; later folded into REQUEUED)"},
    {"REQUEUED", "RQ", run_status::pending, false,
     "Requeue job in completing state: it goes back to PENDING and runs again under the same "
     "id (14.11+)"},
    {"REQUEUE_FED", "RF", run_status::pending, false, "Job being requeued by federation (17.02+)"},
    {"REQUEUE_HOLD", "RH", run_status::pending, false,
     "Requeue any job in hold: requeued and held until released (15.08+)"},
    {"SPECIAL_EXIT", "SE", run_status::failed, true,
     "Requeue an exit job in hold: the job ended with an exit code the site's RequeueExitHold "
     "lists and is held; its run is over (14.03+)"},
    {"STOPPED", "ST", run_status::running, false,
     "Job is stopped state (holding resources, but sent SIGSTOP) (15.08+)"},
    {"REVOKED", "RV", run_status::cancelled, true,
     "Sibling job revoked: a federated sibling started elsewhere, this one will never run "
     "(17.02+)"},
    {"RESV_DEL_HOLD", "RD", run_status::pending, false,
     "Job is being held: its reservation was deleted (17.11+)"},
    {"SIGNALING", "SI", run_status::running, false, "Outgoing signal is pending (18.08+)"},
    // --- base states (enum job_states) ---
    {"PENDING", "PD", run_status::pending, false, "queued waiting for initiation"},
    {"RUNNING", "R", run_status::running, false, "allocated resources and executing"},
    {"SUSPENDED", "S", run_status::running, false,
     "allocated resources, execution suspended (resumes later)"},
    {"COMPLETED", "CD", run_status::ok, true, "completed execution successfully"},
    {"CANCELLED", "CA", run_status::cancelled, true, "cancelled by user"},
    {"FAILED", "F", run_status::failed, true, "completed execution unsuccessfully"},
    {"TIMEOUT", "TO", run_status::timeout, true, "terminated on reaching time limit"},
    {"NODE_FAIL", "NF", run_status::node_failure, true, "terminated on node failure"},
    {"PREEMPTED", "PR", run_status::interrupted, true, "terminated due to preemption (2.3+)"},
    {"BOOT_FAIL", "BF", run_status::launch_failed, true,
     "terminated due to node boot failure: the job never started (14.03+)"},
    {"DEADLINE", "DL", run_status::timeout, true,
     "terminated on deadline (--deadline passed before it could finish) (16.05+)"},
    {"OUT_OF_MEMORY", "OOM", run_status::host_oom, true,
     "experienced out of memory error: the memory limit Slurm enforces (cgroup) (17.02+)"},
    // --- words only job_state_string_complete() prints, after a base state ---
    {"LAUNCH_FAILED", "", run_status::launch_failed, true,
     "job launch failed (flag set with a requeue after a failed batch launch) (18.08+)"},
    {"POWER_UP_NODE", "", run_status::pending, false,
     "Allocated powered down nodes, waiting for reboot (18.08+)"},
    {"RECONFIG_FAIL", "", run_status::pending, false,
     "Node configuration for job failed, not job state, just job requeue flag (18.08+)"},
    {"UPDATE_DB", "", run_status::running, false,
     "Send job start to database again (bookkeeping; 18.08 to 24.05, removed in 24.11)"},
    {"UNINITIALISED", "", run_status::pending, false, "state is NO_VAL: not set yet (26.05+)"},
}};

const SlurmStateWord* find_word(std::string_view w) {
  for (const auto& row : kSlurmWords)
    if (row.word == w || (!row.compact.empty() && row.compact == w)) return &row;
  return nullptr;
}

}  // namespace

std::span<const SlurmStateWord> slurm_state_words() {
  return kSlurmWords;
}

RunState slurm_run_state(const std::string& state) {
  // sacct prints "CANCELLED by 0": the first word decides.
  const std::string first = state.substr(0, state.find(' '));
  if (first.find(',') == std::string::npos) {
    if (const auto* row = find_word(first)) return {std::string(row->status), row->finished};
    warn_unknown_once("Slurm", first);
    return {run_status::running, false};
  }
  // job_state_string_complete(): "BASE,FLAG,FLAG". The word job_state_string() would print
  // decides (the table's order); a launch failure names why a finished job ended.
  std::vector<const SlurmStateWord*> rows;
  bool launch_failed = false;
  for (const std::string& w : comma_items(first)) {
    const auto* row = find_word(w);
    if (!row) {
      warn_unknown_once("Slurm", w);
      continue;
    }
    if (row->word == "LAUNCH_FAILED")
      launch_failed = true;
    else
      rows.push_back(row);
  }
  const SlurmStateWord* best = nullptr;
  for (const auto* r : rows)
    if (!best || r < best) best = r;  // earlier in the table = higher precedence
  if (!best)
    return launch_failed ? RunState{run_status::launch_failed, true}
                         : RunState{run_status::running, false};
  if (best->finished && launch_failed && best->word != "COMPLETED")
    return {run_status::launch_failed, true};
  return {std::string(best->status), best->finished};
}

ExitAndSignal parse_slurm_exit_code(const std::string& field) {
  ExitAndSignal r;
  const size_t b = field.find_first_not_of(" \t");
  if (b == std::string::npos) return r;
  const std::string f = field.substr(b, field.find_last_not_of(" \t") - b + 1);
  auto whole = [](const std::string& s) -> std::optional<long long> {
    if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return std::stoll(s);
  };
  const size_t colon = f.find(':');
  if (colon != std::string::npos) {
    // Slurm >= 23.02 squeue, scontrol ExitCode=, sacct ExitCode: "%u:%u" of WEXITSTATUS and
    // WTERMSIG (src/squeue/print.c _print_job_exit_code, commit 93928b0743).
    const auto e = whole(f.substr(0, colon));
    const auto s = whole(f.substr(colon + 1));
    if (!e || !s || *e > 255 || *s > 255) return r;
    r.exit_code = static_cast<int>(*e);
    if (*s != 0) r.signal = static_cast<int>(*s);
    return r;
  }
  // Slurm <= 22.05 squeue: job->exit_code printed as a number, the raw wait(2) status.
  // NO_VAL (unset) prints as -2 or 4294967294 and is not a status.
  const auto raw = whole(f);
  if (!raw || *raw > 0xffff) return r;
  const int st = static_cast<int>(*raw);
  if (WIFSIGNALED(st)) {
    r.exit_code = 0;  // as the newer form prints it: "0:9"
    r.signal = WTERMSIG(st);
  } else if (WIFEXITED(st)) {
    r.exit_code = WEXITSTATUS(st);
  }
  return r;
}

}  // namespace aerun
