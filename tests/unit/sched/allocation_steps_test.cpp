// Runs inside an allocation start as its job steps (allocation_steps.hpp).
#include "aerun/sched/allocation_steps.hpp"

#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"

namespace aerun {
namespace {

std::vector<PlannedRun> planned_of(const CaseSpec& spec) {
  std::vector<PlannedRun> out;
  plan_runs(spec, nullptr, [&](const PlannedRun& p) {
    out.push_back(p);
    return true;
  });
  return out;
}

TEST(AllocationSteps, UnderSlurmAPlainCommandBecomesAStepSizedByItsPoint) {
  const CaseSpec spec = parse_case(
      "case: c\ncommand: ./train --n {n}\nparams:\n  n: [1, 2]\n"
      "resources:\n  nodes: '{n}'\n  tasks_per_node: 4\n  gpus_per_node: 4\n",
      "c.yaml", "/tmp");
  auto planned = planned_of(spec);
  as_job_steps(spec, Scheduler::Slurm, planned);
  ASSERT_EQ(planned.size(), 2u);
  EXPECT_EQ(planned[0].command,
            "srun --exact --nodes=1 --ntasks-per-node=4 --gpus-per-node=4 /bin/bash -c "
            "'./train --n 1'");
  EXPECT_EQ(planned[1].command,
            "srun --exact --nodes=2 --ntasks-per-node=4 --gpus-per-node=4 /bin/bash -c "
            "'./train --n 2'");
}

TEST(AllocationSteps, ALauncherOrPbsLeavesTheCommandAsItIs) {
  const CaseSpec plain = parse_case("case: c\ncommand: ./train\n", "c.yaml", "/tmp");
  auto under_pbs = planned_of(plain);
  as_job_steps(plain, Scheduler::Pbs, under_pbs);
  EXPECT_EQ(under_pbs[0].command, "./train");
  const CaseSpec launched = parse_case(
      "case: c\ncommand: '{launch} ./train'\nlauncher: {kind: srun, hostfile: /dev/null}\n",
      "c.yaml", "/tmp");
  std::vector<PlannedRun> steps{PlannedRun{}};
  steps[0].command = "srun -n 8 ./train";
  as_job_steps(launched, Scheduler::Slurm, steps);
  EXPECT_EQ(steps[0].command, "srun -n 8 ./train");
  EXPECT_EQ(job_launch_setup(launched).prefix, "$DIST_LAUNCH");
  EXPECT_EQ(job_launch_setup(plain).prefix, "");
}

TEST(AllocationSteps, InABatchJobEveryLaunchPlaceholderIsTheJobsLaunchLine) {
  // The local runner and a job script read `{launch}` the same way: every occurrence (a batch
  // job used to replace only the first, leaving "{launch}" for the shell).
  const CaseSpec spec = parse_case(
      "case: c\ncommand: '{launch} ./warmup && {launch} ./train --n {n}'\nparams:\n  n: [1]\n"
      "launcher: {kind: srun, hostfile: /dev/null}\n",
      "c.yaml", "/tmp");
  const LaunchSetup job = job_launch_setup(spec);
  std::vector<PlannedRun> runs;
  plan_runs(spec, PlanOptions{nullptr, /*with_keys=*/true, &job}, [&](const PlannedRun& p) {
    runs.push_back(p);
    return true;
  });
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].command, "$DIST_LAUNCH ./warmup && $DIST_LAUNCH ./train --n 1");
}

}  // namespace
}  // namespace aerun
