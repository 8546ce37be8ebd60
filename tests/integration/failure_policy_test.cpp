// Outcomes are results, not something to retry forever (issue 11): a deterministic failure (oom,
// timeout, a plain non-zero exit) is kept by the next `aerun case`; a transient one (comm_error,
// node_failure, interrupted, ...) runs again; `retries:` retries transient failures only.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// Each point counts its executions in a file named after it; `mode` decides how it ends.
const char* kCase = R"yaml(case: policy
params: {mode: [ok, oom, nccl, exit3]}
command: |
  echo run >> count-{mode}
  case {mode} in
    ok) echo fine ;;
    oom) echo "torch.cuda.OutOfMemoryError: CUDA out of memory."; exit 1 ;;
    nccl) echo "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1191, unhandled system error"; exit 1 ;;
    exit3) echo "bad config"; exit 3 ;;
  esac
status: {oom: 'CUDA out of memory', comm_error: 'NCCL error'}
)yaml";

int runs_of(const TempDir& d, const std::string& mode) {
  const std::string text = read_file(d / ("count-" + mode));
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST(FailurePolicy, ASecondInvocationKeepsDeterministicFailuresAndRerunsTransientOnes) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  EXPECT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 1);
  const auto again = run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(again.code, 1);  // the kept failures are still failures of the case
  EXPECT_THAT(again.err, HasSubstr("kept 2 earlier result(s) (1 failed, 1 oom)"));
  EXPECT_EQ(runs_of(d, "ok"), 1);
  EXPECT_EQ(runs_of(d, "oom"), 1);
  EXPECT_EQ(runs_of(d, "exit3"), 1);
  EXPECT_EQ(runs_of(d, "nccl"), 2);  // comm_error is transient
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db,
                 "SELECT group_concat(status || ':' || attempt, ' ') FROM "
                 "(SELECT status, attempt FROM runs ORDER BY status)"),
            "comm_error:2 failed:1 ok:1 oom:1");
  // --rerun-failed runs every failure again.
  EXPECT_EQ(run_aerun(d, {"case", "c.yaml", "--rerun-failed"}).code, 1);
  EXPECT_EQ(runs_of(d, "oom"), 2);
  EXPECT_EQ(runs_of(d, "exit3"), 2);
  EXPECT_EQ(runs_of(d, "ok"), 1);
}

TEST(FailurePolicy, TheCasesRerunListNamesFailuresToRunAgain) {
  TempDir d;
  write_file(d / "c.yaml", std::string(kCase) + "rerun: [oom]\n");
  run_aerun(d, {"case", "c.yaml"});
  run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(runs_of(d, "oom"), 2);
  EXPECT_EQ(runs_of(d, "exit3"), 1);
}

TEST(FailurePolicy, RetriesRetryTransientFailuresOnlyUnlessTheCaseSaysWhich) {
  TempDir d;
  write_file(d / "c.yaml", std::string(kCase) + "retries: 2\n");
  run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(runs_of(d, "nccl"), 3);  // 1 + 2 retries
  EXPECT_EQ(runs_of(d, "oom"), 1);
  EXPECT_EQ(runs_of(d, "exit3"), 1);

  TempDir e;
  write_file(e / "c.yaml", std::string(kCase) + "retries: {count: 1, on: [failed]}\n");
  run_aerun(e, {"case", "c.yaml"});
  EXPECT_EQ(runs_of(e, "exit3"), 2);
  EXPECT_EQ(runs_of(e, "nccl"), 1);
  EXPECT_EQ(runs_of(e, "oom"), 1);
}

TEST(FailurePolicy, UnknownStatusNamesAndResumeAreRefusedClearly) {
  TempDir d;
  write_file(d / "c.yaml", std::string(kCase) + "rerun: [oom, timout]\n");
  auto r = run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(r.code, 2);
  const auto line = std::count(kCase, kCase + std::char_traits<char>::length(kCase), '\n') + 1;
  EXPECT_THAT(r.err, HasSubstr("c.yaml:" + std::to_string(line)));
  EXPECT_THAT(r.err, HasSubstr("unknown status 'timout' (did you mean 'timeout'?)"));
  write_file(d / "c.yaml", kCase);
  r = run_aerun(d, {"case", "c.yaml", "--resume"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--resume is gone"));
}
