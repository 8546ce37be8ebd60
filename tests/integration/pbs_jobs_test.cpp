// PBS Pro jobs through aerun, against the stand-in qsub/qstat/qdel of tests/fixtures/pbs (no PBS
// server exists in Debian; the stand-in checks the directives and prints `qstat -f -F json` as
// PBS Pro documents it). Arrays (-J), --no-wait + collect, qdel, a rejected queue, an
// unreachable server, a walltime kill.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

class PbsJobs : public ::testing::Test {
 protected:
  Result aerun(const std::vector<std::string>& args, const std::string& extra = "") {
    const std::string env =
        "PATH=" + aerun::shell_quote(std::string(AERUN_FIXTURES) + "/pbs:" + std::getenv("PATH")) +
        " PBS_STANDIN_DIR=" + aerun::shell_quote(dir_ / "pbs") + " " + extra;
    return run_aerun(dir_, args, env);
  }
  std::string db() const { return dir_ / "results/aerun.db"; }
  TempDir dir_;
};

const char* kSweep = R"(case: polaris
params:
  n: [1, 2, 3]
command: echo "step 1 n={n}"; echo "loss 0.{n}"; test {n} != 2
startup: {first_step: 'step 1'}
metrics:
  loss: {regex: 'loss ([0-9.]+)'}
resources:
  nodes: 2
  gpus_per_node: 4
  tasks_per_node: 4
  cpus_per_task: 8
  walltime: 1h
  queue: debug
  project: datascience
  filesystems: home:eagle
  place: scatter
)";

}  // namespace

TEST_F(PbsJobs, ASweepIsOneArrayJobWithPolarisDirectives) {
  write_file(dir_ / "c.yaml", kSweep);
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"});
  EXPECT_EQ(r.code, 1) << r.err;
  const auto rows =
      sql(db(),
          "SELECT p.value, r.status, r.job_id, r.scheduler_state, m.value FROM runs r "
          "JOIN run_params p ON p.run_id=r.id LEFT JOIN metrics m ON m.run_id=r.id "
          "ORDER BY p.value");
  const std::vector<std::vector<std::string>> want{{"1", "ok", "1[0].standin", "X", "0.1"},
                                                   {"2", "failed", "1[1].standin", "X", "0.2"},
                                                   {"3", "ok", "1[2].standin", "X", "0.3"}};
  EXPECT_EQ(rows, want);
  const std::string script =
      read_file((dir_.path() / "results/logs/polaris/jobs").string() + "/" +
                fs::directory_iterator(dir_.path() / "results/logs/polaris/jobs")
                    ->path()
                    .filename()
                    .string());
  EXPECT_THAT(script, HasSubstr("#PBS -l select=2:ncpus=32:ngpus=4:mpiprocs=4\n"));
  EXPECT_THAT(script,
              HasSubstr("#PBS -l walltime=01:00:00\n#PBS -l place=scatter\n"
                        "#PBS -l filesystems=home:eagle\n#PBS -A datascience\n#PBS -q debug\n"
                        "#PBS -J 0-2\n"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE queue_wait_s >= 0 AND startup_s >= 0"),
            "3");
}

TEST_F(PbsJobs, NoWaitThenCollectAndCancel) {
  write_file(dir_ / "c.yaml",
             "case: q\nparams: {t: [0, 300]}\ncommand: echo hi; sleep {t}\n"
             "resources: {array: false, queue: debug}\n");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "pbs", "--no-wait"}).code, 0);
  ASSERT_TRUE(eventually(
      [&] {
        aerun({"collect", "q"});
        return sql1(db(), "SELECT group_concat(status, ',') FROM runs ORDER BY id") == "ok,running";
      },
      20));
  const auto c = aerun({"cancel", "q"});
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(sql1(db(), "SELECT status || ' ' || scheduler_state FROM runs WHERE status != 'ok'"),
            "cancelled F");
}

TEST_F(PbsJobs, AnUnknownQueueIsRejectedWithQsubsMessage) {
  write_file(dir_ / "c.yaml", "case: badq\ncommand: echo hi\nresources: {queue: nosuchq}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("qsub: Unknown queue"));
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "submit_failed");
}

TEST_F(PbsJobs, AnUnreachableServerLeavesRunsQueuedUntilItAnswers) {
  // The job waits for a file, so it cannot finish (and be collected) before the server goes down.
  const std::string release = dir_ / "release";
  write_file(dir_ / "c.yaml", "case: down\ncommand: for i in $(seq 600); do [ -e " +
                                  aerun::shell_quote(release) +
                                  " ] && break; sleep 0.1; done; echo hi\n");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "pbs", "--no-wait"}).code, 0);
  write_file(dir_ / "pbs/down", "");
  const auto down = aerun({"collect", "down"});
  EXPECT_EQ(down.code, 2);
  EXPECT_THAT(down.err, HasSubstr("cannot connect to server"));
  EXPECT_THAT(sql1(db(), "SELECT status FROM runs"), ::testing::AnyOf("pending", "running"));
  fs::remove(dir_ / "pbs/down");
  write_file(release, "");
  EXPECT_EQ(aerun({"collect", "down", "--wait", "--poll", "0.3"}).code, 0);
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "ok");
}

TEST_F(PbsJobs, AWalltimeKillIsATimeout) {
  write_file(dir_ / "c.yaml", "case: wt\ncommand: sleep 60\nresources: {walltime: 1m}\n");
  // The stand-in scales walltime by 1/30: the 1-minute limit strikes after 2 s.
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"}, "PBS_STANDIN_TIME_SCALE=0.033");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(sql1(db(), "SELECT status || ' ' || scheduler_reason FROM runs").substr(0, 27),
            "timeout Exit_status=-29; jo");
}

TEST_F(PbsJobs, AJobMissingFromAMultiIdAnswerIsAskedAloneAndInvalidJsonIsRepaired) {
  // OpenPBS after 23.06 may answer `qstat ID1 ID2 ...` for ID1 only (openpbs#2672), and some
  // versions print invalid JSON escapes: every job is still followed to its end, none is lost.
  write_file(dir_ / "c.yaml", std::string(kSweep) + "  array: false\n");
  fs::create_directories(dir_ / "pbs");
  write_file(dir_ / "pbs/first-only", "");
  write_file(dir_ / "pbs/bad-escapes", "");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;  // n=2 fails by design
  EXPECT_EQ(sql1(db(),
                 "SELECT group_concat(status, ' ') FROM (SELECT status FROM runs r JOIN "
                 "run_params p ON p.run_id=r.id ORDER BY p.value)"),
            "ok failed ok");
  EXPECT_EQ(sql1(db(), "SELECT count(DISTINCT job_id) FROM runs"), "3");
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='lost'"), "0");
}
