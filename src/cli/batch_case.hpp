// `aerun case FILE --scheduler slurm|pbs|local`: the case's runs as batch jobs (or, inside an
// existing allocation, as job steps of it).
#pragma once

#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/run/launch_setup.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/util/env_vars.hpp"
#include "cli/app.hpp"
#include "cli/session_scope.hpp"

namespace aerun::cli {

struct BatchCaseArgs {
  Scheduler scheduler = Scheduler::None;  // None: local (only writes scripts)
  bool dry_run = false;
  bool wait = true;
  bool force = false;
  bool rerun_failed = false;
  int max_queued = 0;
  std::string poll_interval;          // --poll-interval as written ("" = not given)
  int jobs = 1;                       // runs at once in allocation mode
  bool submit_in_allocation = false;  // --submit: new jobs even inside an allocation
  EnvVars env;                        // for every run
  SessionArgs session;                // --label / --session new
};

// Plans the selected runs and runs them through the chosen scheduler; returns the exit code (0
// all ok or, with --no-wait, all submitted; 1 some failed or were not submitted; 128+signal when
// stopped).
int run_batch_case(const Globals& g, const CaseSpec& spec, const RunSelector& selector,
                   const BatchCaseArgs& a);

}  // namespace aerun::cli
