// Scheduler states in aerun's words, the scheduler's own word kept apart. Every Slurm word and
// every PBS Exit_status code has a row here, from the primary sources cited in job_state.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "aerun/sched/pbs_states.hpp"
#include "aerun/sched/slurm_states.hpp"

using namespace aerun;

namespace {

const std::set<std::string> kWords{"pending",      "running",       "ok",          "failed",
                                   "timeout",      "cancelled",     "interrupted", "host_oom",
                                   "node_failure", "launch_failed", "lost"};

struct Row {
  const char* word;
  const char* status;
  bool finished;
};

}  // namespace

// Every word of job_state_string()/_compact()/_complete(), Slurm 1.0 .. 26.05
// (src/common/slurm_protocol_defs.c), as squeue -O State prints it.
TEST(SlurmState, EveryWordOfSlurmHasItsRow) {
  const std::vector<Row> want{{"PENDING", "pending", false},
                              {"RUNNING", "running", false},
                              {"SUSPENDED", "running", false},
                              {"COMPLETED", "ok", true},
                              {"CANCELLED", "cancelled", true},
                              {"FAILED", "failed", true},
                              {"TIMEOUT", "timeout", true},
                              {"NODE_FAIL", "node_failure", true},
                              {"PREEMPTED", "interrupted", true},
                              {"BOOT_FAIL", "launch_failed", true},
                              {"DEADLINE", "timeout", true},
                              {"OUT_OF_MEMORY", "host_oom", true},
                              {"COMPLETING", "running", false},
                              {"STAGE_OUT", "running", false},
                              {"CONFIGURING", "pending", false},
                              {"EXPEDITING", "pending", false},
                              {"RESIZING", "running", false},
                              {"REQUEUED", "pending", false},
                              {"REQUEUED_CRON", "pending", false},
                              {"REQUEUE_FED", "pending", false},
                              {"REQUEUE_HOLD", "pending", false},
                              {"SPECIAL_EXIT", "failed", true},
                              {"STOPPED", "running", false},
                              {"REVOKED", "cancelled", true},
                              {"RESV_DEL_HOLD", "pending", false},
                              {"SIGNALING", "running", false},
                              {"LAUNCH_FAILED", "launch_failed", true},
                              {"POWER_UP_NODE", "pending", false},
                              {"RECONFIG_FAIL", "pending", false},
                              {"UPDATE_DB", "running", false},
                              {"UNINITIALISED", "pending", false}};
  for (const auto& r : want) {
    const RunState s = slurm_run_state(r.word);
    EXPECT_EQ(s.status, r.status) << r.word;
    EXPECT_EQ(s.finished, r.finished) << r.word;
  }
  // The table has exactly these words, each with Slurm's meaning, each mapped to a known word.
  ASSERT_EQ(slurm_state_words().size(), want.size());
  for (const auto& w : slurm_state_words()) {
    EXPECT_FALSE(w.slurm_meaning.empty()) << w.word;
    EXPECT_TRUE(kWords.count(std::string(w.status))) << w.word;
    EXPECT_EQ(w.finished, w.status != "pending" && w.status != "running") << w.word;
  }
}

TEST(SlurmState, CompactCodesMeanTheSame) {
  EXPECT_EQ(slurm_run_state("PD").status, "pending");
  EXPECT_EQ(slurm_run_state("CG").status, "running");
  EXPECT_EQ(slurm_run_state("OOM").status, "host_oom");
  EXPECT_EQ(slurm_run_state("NF").status, "node_failure");
  EXPECT_EQ(slurm_run_state("CD").status, "ok");
}

TEST(SlurmState, SacctAndCompleteForms) {
  EXPECT_EQ(slurm_run_state("CANCELLED by 1000").status, "cancelled");
  // job_state_string_complete(): the flag job_state_string() prints decides.
  EXPECT_EQ(slurm_run_state("PENDING,REQUEUED").status, "pending");
  EXPECT_EQ(slurm_run_state("RUNNING,COMPLETING").status, "running");
  EXPECT_EQ(slurm_run_state("FAILED,COMPLETING").finished, false);
  EXPECT_EQ(slurm_run_state("PENDING,LAUNCH_FAILED").status, "pending");  // requeued
  EXPECT_EQ(slurm_run_state("FAILED,LAUNCH_FAILED").status, "launch_failed");
}

TEST(SlurmState, AnUnknownWordStaysActiveAndIsReportedOnce) {
  ::testing::internal::CaptureStderr();
  const RunState a = slurm_run_state("HIBERNATING");
  const RunState b = slurm_run_state("HIBERNATING");
  slurm_run_state("?");
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(a.status, "running");
  EXPECT_FALSE(a.finished);
  EXPECT_FALSE(b.finished);
  EXPECT_THAT(err, ::testing::HasSubstr("unknown Slurm job state 'HIBERNATING'"));
  EXPECT_THAT(err, ::testing::HasSubstr("unknown Slurm job state '?'"));
  EXPECT_EQ(err.find("HIBERNATING"), err.rfind("HIBERNATING")) << err;  // once
}

// squeue -O exit_code: "exit:signal" since 23.02 (src/squeue/print.c, commit 93928b0743), the raw
// wait status before (22.05 prints job->exit_code with _print_int).
TEST(SlurmExitCode, BothFormsGiveExitAndSignal) {
  auto e = parse_slurm_exit_code("0:9");
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_EQ(e.signal, 9);
  e = parse_slurm_exit_code("1:0");
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_FALSE(e.signal);
  e = parse_slurm_exit_code("256");  // 22.05: exit 1
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_FALSE(e.signal);
  e = parse_slurm_exit_code("9");  // 22.05: SIGKILL
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_EQ(e.signal, 9);
  e = parse_slurm_exit_code("134");  // 22.05: SIGABRT with core dump (0x80)
  EXPECT_EQ(e.signal, 6);
  e = parse_slurm_exit_code("0");
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_FALSE(e.signal);
  for (const char* bad : {"", "-2", "4294967294", "N/A", "1:x"}) {
    e = parse_slurm_exit_code(bad);
    EXPECT_FALSE(e.exit_code) << bad;
    EXPECT_FALSE(e.signal) << bad;
  }
}

TEST(PbsState, QueuedAndRunningLettersAreNotFinished) {
  for (const char* s : {"Q", "H", "W", "T", "M"}) {
    EXPECT_EQ(pbs_run_state(s, 10, std::nullopt).status, "pending") << s;
    EXPECT_FALSE(pbs_run_state(s, 10, std::nullopt).finished) << s;
  }
  for (const char* s : {"R", "E", "B", "S", "U"}) {
    EXPECT_EQ(pbs_run_state(s, 42, std::nullopt).status, "running") << s;
    EXPECT_FALSE(pbs_run_state(s, 42, std::nullopt).finished) << s;
  }
  // Held after repeated launch failures (req_runjob.c check_failed_attempts) is still queued.
  EXPECT_FALSE(pbs_run_state("H", 20, -3, "job held, too many failed attempts to run").finished);
}

// Every JOB_EXEC_* of OpenPBS src/include/job.h, on a finished job (F, substate 93 FAILED).
TEST(PbsState, EveryExitStatusCodeHasItsRow) {
  const std::vector<std::pair<int, const char*>> want{{0, "ok"},
                                                      {-1, "launch_failed"},
                                                      {-2, "launch_failed"},
                                                      {-3, "launch_failed"},
                                                      {-4, "node_failure"},
                                                      {-5, "node_failure"},
                                                      {-6, "node_failure"},
                                                      {-7, "launch_failed"},
                                                      {-10, "launch_failed"},
                                                      {-11, "interrupted"},
                                                      {-12, "interrupted"},
                                                      {-13, "launch_failed"},
                                                      {-14, "node_failure"},
                                                      {-15, "interrupted"},
                                                      {-16, "launch_failed"},
                                                      {-17, "launch_failed"},
                                                      {-18, "interrupted"},
                                                      {-19, "cancelled"},
                                                      {-20, "node_failure"},
                                                      {-21, "launch_failed"},
                                                      {-22, "launch_failed"},
                                                      {-23, "launch_failed"},
                                                      {-24, "failed"},
                                                      {-25, "failed"},
                                                      {-26, "host_oom"},
                                                      {-27, "host_oom"},
                                                      {-28, "timeout"},
                                                      {-29, "timeout"},
                                                      {-30, "launch_failed"}};
  for (const auto& [code, status] : want) {
    EXPECT_EQ(pbs_run_state("F", code == 0 ? 92 : 93, code).status, status) << code;
    EXPECT_TRUE(pbs_run_state("X", 93, code).finished) << code;
  }
  ASSERT_EQ(pbs_exit_codes().size(), want.size());
  for (const auto& c : pbs_exit_codes()) EXPECT_TRUE(kWords.count(std::string(c.status)));
  EXPECT_EQ(pbs_run_state("F", 93, -8).status, "failed");  // undefined negative
}

TEST(PbsState, ExitCodesAndSignals) {
  EXPECT_EQ(pbs_run_state("F", 93, 3).status, "failed");
  EXPECT_EQ(pbs_run_state("F", 93, 137).status, "failed");      // shell's 128 + 9
  EXPECT_EQ(pbs_run_state("F", 93, 256 + 9).status, "failed");  // killed by SIGKILL
}

// Substate 91, JOB_SUBSTATE_TERMINATED: the job was deleted (req_delete.c sets ji_terminated).
TEST(PbsState, DeletedIsCancelledUnlessItNeverCouldLaunch) {
  EXPECT_EQ(pbs_run_state("F", 91, 256 + 15).status, "cancelled");      // qdel of a running job
  EXPECT_EQ(pbs_run_state("F", 91, std::nullopt).status, "cancelled");  // qdel while queued
  EXPECT_EQ(pbs_run_state("F", 92, std::nullopt).status, "cancelled");
  EXPECT_EQ(pbs_run_state("F", 91, 0).status, "cancelled");
  // Held after repeated JOB_EXEC_RETRY, then deleted: a launch failure, not a cancellation.
  EXPECT_EQ(pbs_run_state("F", 91, -3).status, "launch_failed");
  EXPECT_EQ(pbs_run_state("X", 91, -3).status, "launch_failed");
  EXPECT_EQ(pbs_run_state("F", 91, std::nullopt,
                          "job held, too many failed attempts to run and terminated by alice")
                .status,
            "launch_failed");
  EXPECT_TRUE(pbs_run_state("F", 91, -3).finished);
}
