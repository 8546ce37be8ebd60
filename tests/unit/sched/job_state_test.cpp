// Scheduler states in aerun's words, the scheduler's own word kept apart.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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
  EXPECT_EQ(slurm_run_state("OUT_OF_MEMORY").status, "host_oom");  // the job's memory limit
  EXPECT_EQ(slurm_run_state("NODE_FAIL").status, "node_failure");
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
  EXPECT_EQ(pbs_run_state("F", 92, -27).status, "host_oom");
  EXPECT_EQ(pbs_run_state("F", 92, -20).status, "node_failure");
  EXPECT_EQ(pbs_run_state("F", 91, 271).status, "cancelled");
  EXPECT_EQ(pbs_run_state("F", 91, std::nullopt).status, "cancelled");
  EXPECT_TRUE(pbs_run_state("X", 92, 0).finished);
}

TEST(SlurmState, EveryWordOfJobStateStringHasItsMeaning) {
  // src/common/slurm_protocol_defs.c job_state_string(), and newer words.
  const std::vector<std::pair<const char*, const char*>> table = {
      {"PENDING", "pending"},        {"CONFIGURING", "pending"},     {"POWER_UP_NODE", "pending"},
      {"EXPEDITING", "pending"},     {"REQUEUED", "pending"},        {"REQUEUE_HOLD", "pending"},
      {"REQUEUE_FED", "pending"},    {"RESV_DEL_HOLD", "pending"},   {"RUNNING", "running"},
      {"COMPLETING", "running"},     {"SUSPENDED", "running"},       {"STOPPED", "running"},
      {"SIGNALING", "running"},      {"STAGE_OUT", "running"},       {"RESIZING", "running"},
      {"COMPLETED", "ok"},           {"FAILED", "failed"},           {"SPECIAL_EXIT", "failed"},
      {"TIMEOUT", "timeout"},        {"DEADLINE", "timeout"},        {"OUT_OF_MEMORY", "host_oom"},
      {"NODE_FAIL", "node_failure"}, {"BOOT_FAIL", "launch_failed"}, {"CANCELLED", "cancelled"},
      {"REVOKED", "cancelled"},      {"PREEMPTED", "interrupted"}};
  for (const auto& [word, status] : table) {
    EXPECT_EQ(slurm_run_state(word).status, status) << word;
    const bool active = std::string(status) == "pending" || std::string(status) == "running";
    EXPECT_EQ(slurm_run_state(word).finished, !active) << word;
  }
}

TEST(SlurmState, AnUnknownWordIsStillActiveAndReportedOnce) {
  testing::internal::CaptureStderr();
  EXPECT_FALSE(slurm_run_state("WARPING").finished);
  EXPECT_FALSE(slurm_run_state("WARPING").finished);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("unknown Slurm job state 'WARPING'"), std::string::npos) << err;
  EXPECT_EQ(err.find("WARPING"), err.rfind("WARPING"));  // once
}

TEST(PbsState, PbsOwnExitCodesFromOpenPbsJobH) {
  EXPECT_EQ(pbs_run_state("F", 92, -3).status, "launch_failed");  // JOB_EXEC_RETRY, held
  EXPECT_EQ(pbs_run_state("F", 91, -3).status, "launch_failed");
  EXPECT_EQ(pbs_run_state("F", 92, -28).status, "timeout");        // KILL_CPUT
  EXPECT_EQ(pbs_run_state("F", 92, -26).status, "host_oom");       // KILL_VMEM
  EXPECT_EQ(pbs_run_state("F", 92, -11).status, "interrupted");    // RERUN
  EXPECT_EQ(pbs_run_state("F", 92, -10).status, "launch_failed");  // FAILUID
  EXPECT_EQ(pbs_run_state("F", 92, -19).status, "cancelled");      // HOOK_DELETE
  EXPECT_EQ(pbs_run_state("F", 92, -99).status, "failed");         // unknown: a failure
}
