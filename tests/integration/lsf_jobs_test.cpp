// IBM Spectrum LSF jobs through aerun, against the stand-in bsub/bjobs/bkill/bparams of
// tests/fixtures/lsf (LSF is not in Debian; the stand-in reads #BSUB directives from stdin and
// answers `bjobs -json` as IBM documents it, with the words real LSF prints: its README cites
// each). An array (-J "name[1-N]"), --no-wait + collect, bkill, a refused queue, an array over
// MAX_JOB_ARRAY_SIZE, a run-limit kill, LSF out of reach.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

class LsfJobs : public ::testing::Test {
 protected:
  Result aerun(const std::vector<std::string>& args, const std::string& extra = "") {
    const std::string env =
        "PATH=" + aerun::shell_quote(std::string(AERUN_FIXTURES) + "/lsf:" + std::getenv("PATH")) +
        " LSF_STANDIN_DIR=" + aerun::shell_quote(dir_ / "lsf") + " " + extra;
    return run_aerun(dir_, args, env);
  }
  std::string db() const { return dir_ / "results/aerun.db"; }
  std::string script(const std::string& case_name) const {
    for (const auto& e : fs::directory_iterator(dir_.path() / "results/logs" / case_name / "jobs"))
      if (e.path().extension() == ".lsf") return read_file(e.path());
    return "";
  }
  TempDir dir_;
};

const char* kSweep = R"(case: summit
params:
  n: [1, 2, 3]
command: echo "step 1 n={n}"; echo "loss 0.{n}"; test {n} != 2
startup: {first_step: 'step 1'}
metrics:
  loss: {regex: 'loss ([0-9.]+)'}
resources:
  nodes: 2
  tasks_per_node: 6
  gpus_per_node: 6
  walltime: 90m
  queue: debug
  project: csc999
)";

}  // namespace

TEST_F(LsfJobs, ASweepIsOneArrayJobWhoseElementsAreItsRuns) {
  write_file(dir_ / "c.yaml", kSweep);
  const auto r = aerun({"case", "c.yaml", "--scheduler", "lsf"});
  EXPECT_EQ(r.code, 1) << r.err;  // n=2 fails
  const auto rows = sql(db(),
                        "SELECT p.value, r.status, r.job_id, r.scheduler_state, r.exit_code, "
                        "m.value FROM runs r JOIN run_params p ON p.run_id=r.id "
                        "LEFT JOIN metrics m ON m.run_id=r.id ORDER BY p.value");
  const std::vector<std::vector<std::string>> want{{"1", "ok", "1000[1]", "DONE", "0", "0.1"},
                                                   {"2", "failed", "1000[2]", "EXIT", "1", "0.2"},
                                                   {"3", "ok", "1000[3]", "DONE", "0", "0.3"}};
  EXPECT_EQ(rows, want);
  const std::string s = script("summit");
  EXPECT_THAT(s, HasSubstr("#BSUB -J \"summit-"));
  EXPECT_THAT(s,
              HasSubstr("[1-3]\"\n#BSUB -n 12\n#BSUB -R \"span[ptile=6]\"\n#BSUB -gpu \"num=6\"\n"
                        "#BSUB -W 90\n#BSUB -q debug\n#BSUB -P csc999\n"));
  EXPECT_THAT(s, HasSubstr("LSB_JOBINDEX=N+1 bash THIS_SCRIPT"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE queue_wait_s >= 0 AND startup_s >= 0"),
            "3");
  // Each run's log is its own output, as it ran; LSF's job report is the -o file beside it.
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE scheduler='lsf'"), "3");
}

TEST_F(LsfJobs, NoWaitThenCollectAndCancel) {
  write_file(dir_ / "c.yaml",
             "case: q\nparams: {t: [0, 300]}\ncommand: echo hi; sleep {t}\n"
             "resources: {array: false, queue: debug}\n");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "lsf", "--no-wait"}).code, 0);
  ASSERT_TRUE(eventually(
      [&] {
        aerun({"collect", "q"});
        return sql1(db(), "SELECT group_concat(status, ',') FROM runs ORDER BY id") == "ok,running";
      },
      20));
  const auto c = aerun({"cancel", "q"});
  EXPECT_EQ(c.code, 0) << c.err;
  ASSERT_TRUE(eventually(
      [&] {
        aerun({"collect", "q"});
        return sql1(db(),
                    "SELECT status || ' ' || scheduler_state FROM runs WHERE status != 'ok'") ==
               "cancelled EXIT";
      },
      20));
  EXPECT_THAT(sql1(db(), "SELECT scheduler_reason FROM runs WHERE status='cancelled'"),
              HasSubstr("TERM_OWNER: job killed by owner"));
}

TEST_F(LsfJobs, AnUnknownQueueIsRefusedWithBsubsWords) {
  write_file(dir_ / "c.yaml", "case: badq\ncommand: echo hi\nresources: {queue: nosuchq}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "lsf"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err + r.out, HasSubstr("No such queue. Job not submitted."));
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "submit_failed");
}

TEST_F(LsfJobs, ASweepOverMaxJobArraySizeIsCutIntoArraysThatFit) {
  write_file(dir_ / "c.yaml", "case: wide\nparams: {i: [1, 2, 3, 4, 5]}\ncommand: echo run {i}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "lsf"}, "LSF_STANDIN_MAX_ARRAY_SIZE=2");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out + r.err, HasSubstr("5 runs in 3 arrays of at most 2: MAX_JOB_ARRAY_SIZE = 2"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "5");
}

TEST_F(LsfJobs, ARunPastItsRunLimitIsATimeout) {
  write_file(dir_ / "c.yaml",
             "case: slow\ncommand: echo begun; sleep 60\nresources: {walltime: 1m}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "lsf"}, "LSF_STANDIN_TIME_SCALE=0.05");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(sql1(db(), "SELECT status || ' ' || scheduler_state FROM runs"), "timeout EXIT");
  EXPECT_THAT(sql1(db(), "SELECT scheduler_reason FROM runs"),
              HasSubstr("TERM_RUNLIMIT: job killed after reaching LSF run time limit"));
}

TEST_F(LsfJobs, LsfOutOfReachLeavesRunsQueuedUntilItAnswers) {
  // The job waits for a file, so it cannot finish (and be collected) before LSF goes down.
  const std::string release = dir_ / "release";
  write_file(dir_ / "c.yaml", "case: down\ncommand: for i in $(seq 600); do [ -e " +
                                  aerun::shell_quote(release) +
                                  " ] && break; sleep 0.1; done; echo hi\n");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "lsf", "--no-wait"}).code, 0);
  write_file(dir_ / "lsf/down", "");
  const auto down = aerun({"collect", "down"});
  EXPECT_EQ(down.code, 2);
  EXPECT_THAT(down.err, HasSubstr("LSF is down. Please wait..."));
  EXPECT_THAT(sql1(db(), "SELECT status FROM runs"), ::testing::AnyOf("pending", "running"));
  fs::remove(dir_ / "lsf/down");
  write_file(release, "");
  EXPECT_EQ(aerun({"collect", "down", "--wait", "--poll", "0.3"}).code, 0);
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "ok");
}

TEST_F(LsfJobs, ADryRunWritesTheScriptWithoutSubmitting) {
  write_file(dir_ / "c.yaml", kSweep);
  const auto r = aerun({"case", "c.yaml", "--scheduler", "lsf", "--dry-run"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(script("summit"), HasSubstr("#BSUB -W 90\n"));
  EXPECT_FALSE(fs::exists(dir_ / "lsf/seq"));  // nothing was submitted
}
