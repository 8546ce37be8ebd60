// Scheduler states in aerun's words, the scheduler's own word kept apart.
#include <gtest/gtest.h>

#include "aerun/job_state.hpp"

using aerun::pbs_run_state;
using aerun::slurm_run_state;

TEST(SlurmState, QueuedAndRunningStatesAreNotFinished) {
  for (const char* s : {"PENDING", "CONFIGURING", "REQUEUED"})
    EXPECT_EQ(slurm_run_state(s).status, "pending") << s;
  for (const char* s : {"RUNNING", "COMPLETING", "SUSPENDED", "SOMETHING_NEW"}) {
    EXPECT_EQ(slurm_run_state(s).status, "running") << s;
    EXPECT_FALSE(slurm_run_state(s).finished) << s;
  }
}

TEST(SlurmState, EndStatesMapToRunStatuses) {
  EXPECT_EQ(slurm_run_state("COMPLETED").status, "ok");
  EXPECT_EQ(slurm_run_state("FAILED").status, "failed");
  EXPECT_EQ(slurm_run_state("TIMEOUT").status, "timeout");
  EXPECT_EQ(slurm_run_state("OUT_OF_MEMORY").status, "oom");
  EXPECT_EQ(slurm_run_state("NODE_FAIL").status, "node_fail");
  EXPECT_EQ(slurm_run_state("CANCELLED by 0").status, "cancelled");
  EXPECT_EQ(slurm_run_state("PREEMPTED").status, "interrupted");
  EXPECT_TRUE(slurm_run_state("TIMEOUT").finished);
}

TEST(PbsState, QueuedRunningAndFinishedByExitStatus) {
  EXPECT_EQ(pbs_run_state("Q", 10, std::nullopt).status, "pending");
  EXPECT_EQ(pbs_run_state("H", 20, std::nullopt).status, "pending");
  EXPECT_EQ(pbs_run_state("R", 42, std::nullopt).status, "running");
  EXPECT_EQ(pbs_run_state("B", 42, std::nullopt).status, "running");
  EXPECT_EQ(pbs_run_state("F", 92, 0).status, "ok");
  EXPECT_EQ(pbs_run_state("X", 92, 3).status, "failed");
  EXPECT_EQ(pbs_run_state("F", 92, 256 + 9).status, "failed");
  EXPECT_EQ(pbs_run_state("F", 92, -29).status, "timeout");
  EXPECT_EQ(pbs_run_state("F", 92, -27).status, "oom");
  EXPECT_EQ(pbs_run_state("F", 92, -20).status, "node_fail");
  EXPECT_EQ(pbs_run_state("F", 91, 271).status, "cancelled");
  EXPECT_EQ(pbs_run_state("F", 91, std::nullopt).status, "cancelled");
  EXPECT_TRUE(pbs_run_state("X", 92, 0).finished);
}
