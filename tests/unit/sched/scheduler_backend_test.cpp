// The scheduler backends are found by name in one registry, each one whole: its name, its kind,
// its script's words and its client, so that nothing outside a backend asks which one it has.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "aerun/sched/scheduler_backend.hpp"
#include "aerun/util/error.hpp"

namespace aerun {
namespace {

using ::testing::HasSubstr;

TEST(SchedulerBackends, EachIsFoundByItsNameAndByItsKind) {
  std::set<std::string> names;
  for (const SchedulerBackend* b : scheduler_backends()) {
    EXPECT_TRUE(names.insert(std::string(b->name())).second) << "two backends named " << b->name();
    EXPECT_EQ(find_scheduler_backend(b->name()), b);
    EXPECT_EQ(&scheduler_backend(b->kind()), b);
  }
  EXPECT_EQ(names, (std::set<std::string>{"flux", "local", "lsf", "pbs", "slurm"}));
  EXPECT_EQ(find_scheduler_backend("sge"), nullptr);
  EXPECT_EQ(scheduler_backend(Scheduler::None).name(), "local");
}

TEST(SchedulerBackends, ABatchSchedulersNameIsTheOneCaseFilesUse) {
  for (const SchedulerBackend* b : scheduler_backends()) {
    if (b->kind() != Scheduler::None) {
      EXPECT_EQ(to_string(b->kind()), b->name());
      EXPECT_EQ(parse_scheduler(std::string(b->name())), b->kind());
    }
  }
}

TEST(SchedulerBackends, TheLocalShellHasNoClientAndSaysWhichSchedulersThereAre) {
  try {
    (void)scheduler_backend(Scheduler::None).client();
    ADD_FAILURE() << "the local backend made a client";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no batch scheduler chosen (slurm, pbs, lsf, flux)"));
  }
}

TEST(SchedulerBackends, EachBatchSchedulerHasAClientOfItsOwnKind) {
  for (const SchedulerBackend* b : scheduler_backends()) {
    if (b->kind() != Scheduler::None) {
      EXPECT_EQ(b->client()->kind(), b->kind()) << b->name();
    }
  }
}

// What a job script of each says, as sbatch(1) and qsub(1B) define the variables a job sees.
TEST(SchedulerBackends, AJobScriptsWordsAreThoseOfItsScheduler) {
  const SchedulerBackend& slurm = *find_scheduler_backend("slurm");
  const SchedulerBackend& pbs = *find_scheduler_backend("pbs");
  const SchedulerBackend& local = *find_scheduler_backend("local");
  EXPECT_EQ(slurm.task_index_expression(), "${SLURM_ARRAY_TASK_ID:-0}");
  EXPECT_EQ(pbs.task_index_expression(), "${PBS_ARRAY_INDEX:-0}");
  EXPECT_EQ(local.task_index_expression(), "${1:-0}");
  EXPECT_EQ(slurm.array_task_token(), "%a");
  EXPECT_EQ(pbs.array_task_token(), "^array_index^");
  EXPECT_EQ(slurm.allocation_variable(), "SLURM_JOB_ID");
  EXPECT_EQ(pbs.allocation_variable(), "PBS_JOBID");
  EXPECT_EQ(local.allocation_variable(), "");
  EXPECT_EQ(pbs.job_name("1abc"), "j1abc");  // PBS: a name starts with a letter
  EXPECT_EQ(slurm.job_name("1abc"), "1abc");
}

// Only Slurm has job steps; the step of a point is sized by its resources.
TEST(SchedulerBackends, OnlySlurmMakesARunAJobStep) {
  ResourcesSpec r;
  r.nodes = 2;
  r.tasks_per_node = 4;
  r.gpus_per_node = 4;
  EXPECT_EQ(find_scheduler_backend("slurm")->job_step(r),
            "srun --exact --nodes=2 --ntasks-per-node=4 --gpus-per-node=4");
  EXPECT_EQ(find_scheduler_backend("pbs")->job_step(r), std::nullopt);
  EXPECT_EQ(find_scheduler_backend("local")->job_step(r), std::nullopt);
}

}  // namespace
}  // namespace aerun
