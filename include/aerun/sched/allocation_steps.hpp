// `aerun case --scheduler slurm|pbs` from inside an allocation: no job is submitted, the runs
// start as steps of the allocation aerun already runs in (docs/schedulers.md).
#pragma once

#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/run/launch_setup.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/util/scheduler_kind.hpp"

namespace aerun {

// The allocation this aerun runs in, if any: SLURM_JOB_ID under Slurm, PBS_JOBID under PBS.
std::string allocation_id(Scheduler s);

// Under Slurm, a command without a launcher of its own becomes a one-task job step sized by
// its point's resources (`srun --exact --nodes=N --ntasks-per-node=T ... SHELL -c COMMAND`); a
// launcher (srun, mpiexec) already starts steps, and PBS has no steps: those are left as they are.
void as_job_steps(const CaseSpec& spec, Scheduler s, std::vector<PlannedRun>& planned);

// The launch line of a case's runs inside a batch job: the job script defines $DIST_LAUNCH with
// `aerun env` on the job's own hosts (job_script.cpp), so `{launch}` is that variable.
LaunchSetup job_launch_setup(const CaseSpec& spec);

}  // namespace aerun
