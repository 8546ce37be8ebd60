// `aerun case FILE`: expand, launch, collect, store.
#include <signal.h>
#include <unistd.h>
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "aerun/case/apply_system.hpp"
#include "aerun/case/case_loader.hpp"
#include "aerun/case/system_catalog.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/run/case_runner.hpp"
#include "aerun/run/plan_printer.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/run/search_runner.hpp"
#include "aerun/run/setup_steps.hpp"
#include "aerun/run/steps_then_runs.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/shell_quote.hpp"
#include "cli/app.hpp"
#include "cli/batch_case.hpp"
#include "cli/session_scope.hpp"
#include "cli/stored_systems.hpp"

namespace aerun::cli {

namespace {

struct CaseArgs {
  std::string file;
  bool dry_run = false;
  bool force = false;
  bool resume = false;  // removed: refused with a message
  bool rerun_failed = false;
  std::vector<std::string> only;
  std::string where;
  int jobs = 1;
  bool quiet_progress = false;
  // Batch schedulers (cli/batch_case.cpp).
  std::string scheduler;  // slurm | pbs | lsf | local ("" = the case's `scheduler:`, else run here)
  std::string system;     // --system NAME: a system profile applied (docs/systems.md)
  std::string systems;    // --systems DIRS: profile folders before $AERUN_SYSTEMS and the shipped
  bool no_wait = false;
  int max_queued = 0;
  std::string poll_interval;
  bool submit = false;
  SessionArgs session;            // --label / --session new
  std::string stall, first_step;  // watchdogs, as written
  std::string container, container_runtime;
  bool no_container = false;
};

// What a local `aerun case` runs in: the store, this invocation's session, the runner's options
// (the demo workload and the launch's rendezvous variables in every run's environment).
struct LocalInvocation {
  LocalInvocation(const Globals& g, const CaseArgs& a, const CaseSpec& spec,
                  const LaunchSetup& launch)
      : store(g.resolved_db()),
        env(invocation_env(launch)),
        session(store, recorded(describe_session(a.session, "case", {&spec}, "local", spec.workdir),
                                spec)),
        opts(runner_options(session, g.logs_dir(), a.jobs, a.force, a.rerun_failed)) {
    opts.tty = !a.quiet_progress && isatty(STDERR_FILENO);
    opts.env = env;
  }
  static EnvVars invocation_env(const LaunchSetup& launch) {
    EnvVars env = demo_workload_env();
    set_vars(env, launch.env);
    return env;
  }
  SessionInfo recorded(SessionInfo s, const CaseSpec& spec) {
    record_environment(store, s, spec, env);
    return s;
  }
  Store store;
  EnvVars env;  // aerun's additions to every run's environment
  SessionScope session;
  RunnerOptions opts;
};

// A case with `search:` bisects its searched parameter instead of enumerating it
// (run/search_runner.cpp); local runs only.
int run_search_case(const Globals& g, const CaseArgs& a, const CaseSpec& spec,
                    const RunSelector& selector) {
  if (!a.scheduler.empty() && !(a.scheduler == "local" && !a.dry_run))
    throw InputError(
        SourceLoc{}, "--scheduler",
        "a search case runs its probes here, one round after another; drop --scheduler");
  const LaunchSetup launch = prepare_launch(spec);
  if (a.dry_run) {
    print_search_plan(spec, &selector, launch, std::cout);
    return 0;
  }
  LocalInvocation here(g, a, spec, launch);
  SearchRunner runner(spec, here.store, here.opts, std::cerr);
  return runner.run(&selector, launch).exit_code();
}

// What `aerun case --scheduler` passes on to the batch path (cli/batch_case.cpp).
BatchCaseArgs batch_args(const CaseArgs& a, Scheduler sched) {
  BatchCaseArgs b;
  b.scheduler = sched;
  b.dry_run = a.dry_run;
  b.wait = !a.no_wait;
  b.force = a.force;
  b.rerun_failed = a.rerun_failed;
  b.max_queued = a.max_queued;
  b.poll_interval = a.poll_interval;
  b.session = a.session;
  b.jobs = a.jobs;
  b.submit_in_allocation = a.submit;
  b.env = demo_workload_env();
  return b;
}

// Counts the selected runs (cheaply: keys only when setup steps need them), noting the step
// instances they need; warns when `exclude:` leaves no point, refuses a selection of none.
long long count_runs(const CaseArgs& a, const CaseSpec& spec, const RunSelector& selector,
                     const LaunchSetup* given, SetupSteps& steps) {
  long long total = 0;
  plan_runs(spec, PlanOptions{&selector, /*with_keys=*/!steps.empty(), given},
            [&](const PlannedRun& r) {
              ++total;
              steps.need(r);
              return true;
            });
  if (total == 0 && selector.empty() && !spec.excludes.empty()) {
    std::string which;
    for (const auto& e : spec.excludes)
      which += fmt::format("{}{}:{}{}", which.empty() ? "" : ", ", e.loc.file, e.loc.line,
                           e.condition.empty() ? "" : " (" + e.condition + ")");
    std::cerr << "aerun: warning: case '" << spec.name
              << "' has no point left: `exclude:` removes every one (" << which << ")\n";
  }
  if (total == 0 && !selector.empty()) {
    std::string what;
    for (const auto& o : a.only) what += " --only " + o;
    if (!a.where.empty()) what += " --where '" + a.where + "'";
    throw InputError(SourceLoc{}, a.only.empty() ? "--where" : "--only",
                     fmt::format("no run of case '{}' matches{}: nothing to do", spec.name, what));
  }
  return total;
}

// Runs the case here: its setup steps, then its runs streamed into the runner (a sweep of any
// size in bounded memory), those a failed step blocks left out and said.
int run_local_case(const Globals& g, const CaseArgs& a, const CaseSpec& spec,
                   const RunSelector& selector) {
  // Per-point nodes or GPUs (`nodes: "{nodes}"`), or launcher counts (`ranks: "{np}"`), size
  // each point's launch line: plan_runs works them out, and each run carries its own env.
  const bool launch_per_point =
      spec.launcher && (spec.resources.sizes_launch() || !spec.launcher->per_point.empty());
  const LaunchSetup launch = launch_per_point ? LaunchSetup{} : prepare_launch(spec);
  const LaunchSetup* given = launch_per_point ? nullptr : &launch;
  SetupSteps steps(spec);  // the setup steps the selected runs need (keys only then)
  const long long total = count_runs(a, spec, selector, given, steps);
  LocalInvocation here(g, a, spec, launch);
  // Setup steps first; a run starts only once every step it needs succeeded.
  return run_steps_then_runs(
             spec, steps, here.store, here.opts,
             [&](const std::function<bool(const PlannedRun&)>& sink) {
               plan_runs(spec, PlanOptions{&selector, /*with_keys=*/true, given}, sink);
             },
             total, std::cerr)
      .exit_status();
}

int run_case_command(const Globals& g, const CaseArgs& a) {
  if (a.resume)
    throw InputError(SourceLoc{}, "--resume",
                     "--resume is gone: `aerun case` always continues where it stopped (runs "
                     "already done are reused); drop the flag");
  // The system: --system, else the one recognised here (none: `local`, no named machine).
  if (!a.systems.empty()) name_stored_hosts_by(a.systems);
  const SystemCatalog catalog = load_system_catalog(system_folders(a.systems));
  const SystemProfile* p = nullptr;
  if (!a.system.empty()) {
    p = catalog.find(a.system);
    if (!p) {
      std::string names;
      for (const SystemProfile& q : catalog.profiles) names += (names.empty() ? "" : ", ") + q.name;
      throw InputError(SourceLoc{}, "--system",
                       "no system named '" + a.system + "' (known: " + names + "; aerun systems)");
    }
  } else if (const SystemMatch m = recognise_system(catalog, MachineFacts::here());
             m.profile && !stored_system_name(*m.profile).empty()) {
    p = m.profile;
    std::cerr << "aerun: system " << p->name << " (" << m.why << "; --system local for none)\n";
  }
  // The watchdogs from the command line win over the case's (0 turns one off); the case's own
  // values for the system are read over its keys.
  CaseSpec spec =
      load_case(a.file, CaseOverrides{a.stall, a.first_step, a.container, a.container_runtime,
                                      a.no_container, p ? p->name : std::string()});
  check_valid_system(spec, p ? p->name : std::string("local"));
  if (p) {
    apply_system(spec, *p);
    spec.system = stored_system_name(*p);
  } else if (const SystemProfile* none = catalog.find("local")) {
    resolve_system_launcher(spec, *none);
  }
  const auto names = planned_param_names(spec);
  const RunSelector selector(a.only, names, a.where);
  // Patterns are checked before anything starts.
  Extractor check(spec.metrics, spec.status, spec.startup);
  if (spec.search) return run_search_case(g, a, spec, selector);

  // With a scheduler the runs become batch jobs (or steps of the current allocation).
  // A case's `scheduler: local` runs here; only --scheduler local writes scripts (--dry-run).
  const std::optional<Scheduler> sched =
      a.scheduler.empty() ? spec.scheduler : parse_scheduler(a.scheduler, "--scheduler");
  if (sched && !(*sched == Scheduler::None && !a.dry_run && a.scheduler.empty()))
    return run_batch_case(g, spec, selector, batch_args(a, *sched));
  if (a.dry_run) {
    // Through std::cout, so that the terminal filter sees it (a parameter's escape sequences
    // printed raw by --dry-run: issue 40's third pass).
    // The buffer and its stream are owned here: print_plan throws on a bad point (a case
    // error), and neither may leak then (CI's LeakSanitizer). The stream closes first.
    char* raw = nullptr;
    size_t size = 0;
    struct FreeAtExit {
      char*& p;
      ~FreeAtExit() { std::free(p); }
    } free_at_exit{raw};
    std::unique_ptr<std::FILE, decltype(&std::fclose)> mem(::open_memstream(&raw, &size),
                                                           &std::fclose);
    if (!mem) throw SystemError("cannot print the plan: out of memory");
    print_plan(spec, &selector, mem.get());
    mem.reset();  // flushes: raw and size now hold the whole plan
    std::cout.write(raw, static_cast<std::streamsize>(size));
    return 0;
  }
  return run_local_case(g, a, spec, selector);
}

}  // namespace

void add_case_command(CLI::App& app, Globals& g, Action& action) {
  auto args = std::make_shared<CaseArgs>();
  CLI::App* c =
      app.add_subcommand("case", "expand a case file into runs, launch them, store the results");
  c->add_option("file", args->file, "the case file (YAML)")->required();
  c->add_flag("--dry-run,-n", args->dry_run,
              "print every run's shell-ready command and the count; launch nothing");
  c->add_flag("--force", args->force, "re-run runs that already succeeded");
  c->add_flag("--rerun-failed", args->rerun_failed,
              "run stored failures again too (by default only transient ones: comm_error, "
              "node_failure, interrupted, ...)");
  c->add_flag("--resume", args->resume)->group("");  // removed: continuing is the default
  c->add_option("--only", args->only, "KEY=VALUE[,VALUE...]: run only matching runs (repeatable)");
  c->add_option("--where", args->where,
                "CONDITION: run only points where it holds (`layers >= 48 && method != \"l2l\"`)");
  c->add_option("-j,--jobs", args->jobs, "runs at once")->check(CLI::Range(1, 4096));
  c->add_flag("--no-progress", args->quiet_progress, "plain event lines even on a terminal");
  c->add_option("--system", args->system,
                "run on this system: its profile's scheduler, queue, account, GPUs and "
                "environment set-up fill what the case leaves unset (aerun systems)");
  c->add_option("--systems", args->systems,
                "folders of system profiles before $AERUN_SYSTEMS and the shipped ones "
                "(colon-separated)");
  c->add_option("--scheduler", args->scheduler,
                "slurm | pbs | lsf | flux: submit the runs as batch jobs; local: with --dry-run, "
                "write local scripts (default: the case's `scheduler:`, else run here)")
      ->check(CLI::IsMember(case_scheduler_names()));
  c->add_flag("--no-wait", args->no_wait,
              "submit and return; `aerun collect` gathers the jobs later");
  c->add_option("--stall", args->stall,
                "stop a run that shows no progress line for this long after its last one "
                "(status stalled; e.g. 10m; 0 = off; default: the case's stall)");
  c->add_option("--first-step", args->first_step,
                "stop a run that has not reached its first step this long after it started "
                "(status startup_timeout; e.g. 20m; 0 = off; default: the case's first_step)");
  auto* image = c->add_option("--container", args->container,
                              "run every run inside this image (replaces the case's "
                              "container.image; docs/containers.md)");
  c->add_option("--container-runtime", args->container_runtime,
                "the runtime of --container: apptainer, singularity, pyxis, enroot, podman, "
                "podman-hpc or shifter (default: the case's container.runtime)");
  c->add_flag("--no-container", args->no_container, "run on the host, without the case's container")
      ->excludes(image);
  c->add_option("--label", args->session.label,
                "name this invocation's session (e.g. nightly-2026-11-22): every selected point "
                "runs anew, once per session; the same label again continues that session");
  c->add_option("--session", args->session.session,
                "`new`: a fresh session named by its start time (every selected point runs "
                "anew)");
  c->add_option("--poll-interval", args->poll_interval,
                "batch jobs: the first interval between scheduler queries, or FIRST..LONGEST "
                "(e.g. 10s..5m; default 1s..30s, or the case's poll_interval, or "
                "$AERUN_POLL_INTERVAL)");
  c->add_option("--max-queued", args->max_queued,
                "jobs in the queue at once (caps array tasks too)")
      ->check(CLI::Range(1, 1000000));
  c->add_flag("--submit", args->submit,
              "submit new jobs even inside an allocation (salloc, qsub -I)");
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, args] { action = [&g, args] { return run_case_command(g, *args); }; });
}

}  // namespace aerun::cli
