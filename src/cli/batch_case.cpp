// `aerun case --scheduler ...`: submission, following, dry-run scripts, allocation mode.
#include "cli/batch_case.hpp"

#include <map>
#include <set>

#include "aerun/judge/run_status.hpp"
#include "aerun/run/setup_steps.hpp"
#include "aerun/run/steps_then_runs.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "aerun/case/poll_interval.hpp"
#include "aerun/run/case_runner.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/sched/allocation_steps.hpp"
#include "aerun/sched/batch_runner.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun::cli {

namespace {

// Inside an allocation: the runs become job steps of it. Under Slurm a command with no launcher
// of its own is started as a one-task step (`srun --exact`); a launcher (srun, mpiexec) already
// starts steps. Runs are made by the local runner and tagged with the allocation's job id.
int run_in_allocation(const Globals& g, const CaseSpec& spec, std::vector<PlannedRun> planned,
                      Scheduler sched, const std::string& alloc, const BatchCaseArgs& a) {
  std::cerr << fmt::format(
      "[{}] inside {} job {}: runs start as its job steps, nothing is "
      "submitted\n",
      spec.name, to_string(sched), alloc);
  as_job_steps(spec, sched, planned);
  Store store(g.resolved_db());
  SessionInfo info = describe_session(a.session, "case", {&spec}, to_string(sched), spec.workdir);
  record_environment(store, info, spec, a.env);
  SessionScope session(store, info);
  RunnerOptions opts = runner_options(session, g.logs_dir(), a.jobs, a.force, a.rerun_failed);
  opts.env = a.env;
  // Setup steps first, here (as the runs: steps of the allocation's job).
  SetupSteps steps(spec);
  if (!steps.empty())
    for (const auto& p : planned) steps.need(p);
  const StepsThenRunsOutcome o = run_steps_then_runs(
      spec, steps, store, opts,
      [&](const std::function<bool(const PlannedRun&)>& sink) {
        for (const auto& p : planned)
          if (!sink(p)) return;
      },
      static_cast<long long>(planned.size()), std::cerr);
  for (const auto& p : planned) {
    auto r = store.find_by_key(p.key);
    if (!r || r->runner_pid != getpid() || !r->job_id.empty()) continue;
    r->scheduler = to_string(sched);
    r->job_id = alloc;
    store.update_job(*r);
  }
  return o.exit_status();
}

// A dry-run job: its script, and an array's task table with the command of each task (a run's
// command is in its script).
void print_dry_run_job(const BatchJob& job) {
  std::cout << job.script_path << "\n";
  if (job.tasks_path.empty()) return;
  std::cout << "#   task table: " << job.tasks_path << "\n";
  for (size_t i = 0; i < job.runs.size(); ++i)
    std::cout << fmt::format("#   task {}: {}\n", i, printable(job.runs[i]->command));
}

// A stop signal received while setup steps were followed.
struct StopSignal {
  int signal;
};

// What the case's batch jobs are given: the flags, the logs folder, the poll interval.
BatchOptions batch_options(const Globals& g, const CaseSpec& spec, const BatchCaseArgs& a) {
  BatchOptions o;
  o.wait = a.wait;
  o.max_queued = a.max_queued;
  o.force = a.force;
  o.rerun_failed = a.rerun_failed;
  o.logs_dir = g.logs_dir();
  o.env = a.env;
  o.aerun_binary = self_binary();
  std::optional<PollInterval> cli;
  if (!a.poll_interval.empty())
    cli = parse_poll_interval(a.poll_interval, SourceLoc{}, "--poll-interval");
  std::string warning;
  const PollInterval p = resolve_poll_interval(cli, spec.poll_interval, &warning);
  if (!warning.empty() && !a.dry_run) std::cerr << "aerun: note: " << warning << "\n";
  o.follow.poll_s = p.min_s;
  o.follow.max_poll_s = p.max_s;
  return o;
}

// --dry-run: writes the job scripts (the setup steps' first) and prints them; submits nothing.
int print_batch_dry_run(const Globals& g, const CaseSpec& spec, Scheduler sched,
                        const BatchOptions& o, const std::vector<PlannedRun>& planned) {
  std::unique_ptr<Store> store;
  std::error_code ec;
  if (std::filesystem::exists(g.resolved_db(), ec))
    store = std::make_unique<Store>(g.resolved_db());
  BatchRunner runner(spec, store.get(), sched, o, std::cerr);
  SetupSteps steps(spec);
  for (const auto& p : planned) steps.need(p);
  for (size_t i = 0; i < steps.size(); ++i) {  // the steps' job scripts, submitted first
    BatchRunner step_runner(steps.step_case(i), store.get(), sched, o, std::cerr);
    for (const auto& job : step_runner.write_scripts(steps.instances(i)))
      std::cout << fmt::format("# setup step {}, submitted first: {}\n", spec.steps[i].name,
                               job.script_path);
  }
  const auto jobs = runner.write_scripts(planned);
  std::cout << fmt::format("# case {}: {} run{} in {} {} job script{} (nothing submitted)\n",
                           spec.name, planned.size(), planned.size() == 1 ? "" : "s", jobs.size(),
                           sched == Scheduler::None ? "local" : to_string(sched),
                           jobs.size() == 1 ? "" : "s");
  for (const auto& job : jobs) print_dry_run_job(job);
  return 0;
}

// Setup steps first, as jobs of their own: followed to their end before the runs are submitted,
// or (--no-wait) the runs' jobs wait for them (afterok, through o.after_ok and in_flight: a step
// instance's key -> its job). Drops the runs a failed step blocks from `planned`; returns how many.
long long submit_setup_steps(const CaseSpec& spec, Store& store, Scheduler sched,
                             SchedulerClient& client, const SetupSteps& steps, BatchOptions& o,
                             std::map<std::string, std::string>& in_flight,
                             std::vector<PlannedRun>& planned) {
  std::set<std::string> failed;
  for (size_t i = 0; i < steps.size(); ++i) {
    BatchOptions so = o;
    so.rerun_failed = true;  // a failed step is a setup problem, never a result to keep
    std::vector<std::string> earlier;
    for (const auto& [key, job] : in_flight) earlier.push_back(job);
    so.after_ok = [earlier](const PlannedRun&) { return earlier; };
    std::vector<PlannedRun> todo;
    for (auto& inst : steps.instances(i)) todo.push_back(std::move(inst));
    BatchRunner step_runner(steps.step_case(i), &store, sched, so, std::cerr);
    const BatchSummary ss = step_runner.run(todo, client);
    if (ss.stop_signal) throw StopSignal{ss.stop_signal};
    for (const auto& inst : todo) {
      const auto r = store.find_by_key(inst.key);
      if (r && r->status == run_status::ok) continue;
      if (r && !r->job_id.empty() &&
          (r->status == run_status::pending || r->status == run_status::running))
        in_flight[inst.key] = client.base_id(r->job_id);
      else
        failed.insert(inst.key);
    }
  }
  long long blocked = 0;
  std::vector<PlannedRun> ready;
  for (auto& p : planned) {
    bool ok = true;
    for (size_t i = 0; i < steps.size() && ok; ++i) ok = !failed.count(steps.instance_key(i, p));
    if (ok)
      ready.push_back(std::move(p));
    else
      ++blocked;
  }
  planned = std::move(ready);
  o.after_ok = [&steps, &in_flight](const PlannedRun& p) {
    std::vector<std::string> ids;
    for (size_t i = 0; i < steps.size(); ++i)
      if (auto it = in_flight.find(steps.instance_key(i, p)); it != in_flight.end())
        ids.push_back(it->second);
    return ids;
  };
  if (blocked > 0)
    std::cerr << fmt::format(
        "aerun: {} run{} of case '{}' not submitted: a setup step failed (aerun runs --case "
        "{}.<step>)\n",
        blocked, blocked == 1 ? "" : "s", spec.name, spec.name);
  return blocked;
}

}  // namespace

int run_batch_case(const Globals& g, const CaseSpec& spec, const RunSelector& selector,
                   const BatchCaseArgs& a) {
  const Scheduler sched = a.scheduler;
  for (const auto& w : spec.warnings) std::cerr << "aerun: warning: " << w << "\n";
  const bool in_allocation = !a.dry_run && sched != Scheduler::None &&
                             !allocation_id(sched).empty() && !a.submit_in_allocation;

  // Inside an allocation the local runner discovers the launch line itself; a job's is found
  // inside the job.
  const LaunchSetup batch_launch = job_launch_setup(spec);
  std::vector<PlannedRun> planned;
  const PlanOptions how{&selector, /*with_keys=*/true, in_allocation ? nullptr : &batch_launch};
  plan_runs(spec, how, [&](const PlannedRun& r) {
    planned.push_back(r);
    return true;
  });
  BatchOptions o = batch_options(g, spec, a);
  if (a.dry_run) return print_batch_dry_run(g, spec, sched, o, planned);
  if (sched == Scheduler::None) {
    throw InputError(SourceLoc{}, "--scheduler",
                     "'local' only writes scripts (with --dry-run); without --scheduler aerun runs "
                     "the case itself");
  }
  if (in_allocation) return run_in_allocation(g, spec, planned, sched, allocation_id(sched), a);

  Store store(g.resolved_db());
  SessionInfo info = describe_session(a.session, "case", {&spec}, to_string(sched), spec.workdir);
  // Taken where aerun submits: a job's compute node may differ (its host is in each run's row).
  record_environment(store, info, spec, a.env);
  SessionScope session(store, info);
  o.session_id = session.id();
  o.fresh_session = session.fresh();
  auto client = make_scheduler_client(sched);
  SetupSteps steps(spec);
  std::map<std::string, std::string> in_flight;
  long long blocked = 0;
  if (!steps.empty()) {
    for (const auto& p : planned) steps.need(p);
    try {
      blocked = submit_setup_steps(spec, store, sched, *client, steps, o, in_flight, planned);
    } catch (const StopSignal& s) {
      return 128 + s.signal;
    }
  }
  BatchRunner runner(spec, &store, sched, o, std::cerr);
  const BatchSummary s = runner.run(planned, *client);
  if (!s.stop_signal && s.submit_failed > 0) std::cerr << "aerun: error: " << s.last_error << "\n";
  return s.exit_status(a.wait, blocked);
}

}  // namespace aerun::cli
