// The shared status patterns: each way a run dies, in its tools' wordings, keeps the deciding line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/extractor.hpp"
#include "aerun/presets.hpp"

using aerun::Extractor;

namespace {

aerun::CaseSpec megatron() {
  aerun::CaseSpec spec;
  spec.name = "t";
  spec.presets = {"megatron"};
  aerun::apply_presets(spec, {});
  return spec;
}

Extractor on_file(const std::string& name) {
  const auto spec = megatron();
  return aerun::extract_file(std::string(AERUN_FIXTURES) + "/logs/" + name, spec.metrics,
                             spec.status, spec.startup);
}

Extractor on_text(const std::string& text) {
  const auto spec = megatron();
  Extractor ex(spec.metrics, spec.status, spec.startup);
  ex.feed(text);
  ex.finish();
  return ex;
}

std::string status_of(const std::string& line) {
  const auto ex = on_text(
      " iteration       10/      50 | elapsed time per iteration (ms): 6051.8 |\n" + line + "\n");
  return ex.status() ? ex.status()->status : "";
}

}  // namespace

TEST(StatusPresets, GpuOutOfMemoryKeepsTheDecidingLine) {
  const auto ex = on_file("fixture_status_oom.log");
  ASSERT_TRUE(ex.status());
  EXPECT_EQ(ex.status()->status, "oom");
  EXPECT_EQ(ex.status()->line_no, 9);
  EXPECT_THAT(ex.status()->line, testing::StartsWith("torch.cuda.OutOfMemoryError: CUDA out of"));
}

TEST(StatusPresets, GpuOutOfMemoryInItsOtherWordings) {
  EXPECT_EQ(status_of("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; "
                      "15.78 GiB total capacity; 14.56 GiB already allocated)"),
            "oom");
  EXPECT_EQ(status_of("RuntimeError: CUDA error: out of memory"), "oom");
  EXPECT_EQ(status_of("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB"),
            "oom");
  EXPECT_EQ(status_of("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling "
                      "`cublasCreate(handle)`"),
            "oom");
}

TEST(StatusPresets, HostOutOfMemoryFromSlurmCgroupsOrTheShell) {
  const auto ex = on_file("fixture_status_host_oom.log");
  EXPECT_EQ(ex.status()->status, "host_oom");
  EXPECT_EQ(ex.status()->line_no, 7);  // the first of the two slurm lines
  EXPECT_EQ(status_of("/var/spool/slurmd/job200978/slurm_script: line 42: 12345 Killed        "
                      "          python pretrain_gpt.py"),
            "host_oom");
  EXPECT_EQ(status_of("Killed"), "host_oom");
  EXPECT_EQ(status_of("Killed by a kind reviewer"), "host_oom");  // starts the line
  EXPECT_EQ(status_of("nobody Killedthis"), "");
}

TEST(StatusPresets, TimeLimitFromSlurmAndPbs) {
  EXPECT_EQ(on_file("fixture_status_timeout.log").status()->status, "timeout");
  EXPECT_EQ(status_of("=>> PBS: job killed: walltime 7230 exceeded limit 7200"), "timeout");
}

TEST(StatusPresets, CancelledIsNotATimeLimit) {
  EXPECT_EQ(on_file("fixture_status_cancelled.log").status()->status, "cancelled");
}

TEST(StatusPresets, NodeFailure) {
  const auto ex = on_file("fixture_status_node_failure.log");
  EXPECT_EQ(ex.status()->status, "node_failure");
  EXPECT_EQ(ex.status()->line, "srun: error: Node failure on r7i4n3");
}

TEST(StatusPresets, CommunicationErrorsWinOverTheLauncherThatReportsThemLater) {
  const auto ex = on_file("fixture_status_comm_error.log");
  EXPECT_EQ(ex.status()->status, "comm_error");
  EXPECT_EQ(ex.status()->line_no, 6);  // the NCCL watchdog line comes first
  EXPECT_EQ(status_of("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1191, unhandled system "
                      "error, NCCL version 2.14.3"),
            "comm_error");
}

TEST(StatusPresets, TorchElasticChildFailure) {
  EXPECT_EQ(on_file("fixture_status_launcher_failed.log").status()->status, "launcher_failed");
}

TEST(StatusPresets, NoIterationLoggedIsNoProgress) {
  const auto ex = on_file("fixture_status_no_progress.log");
  EXPECT_EQ(ex.status(), std::nullopt);
  EXPECT_FALSE(ex.progress_seen());
  EXPECT_TRUE(on_file("fixture_status_oom.log").progress_seen());
}

TEST(StatusPresets, WithoutProgressMetricsEveryRunHasProgressed) {
  Extractor ex({}, {}, {});
  ex.feed("nothing\n");
  EXPECT_TRUE(ex.progress_seen());
}
