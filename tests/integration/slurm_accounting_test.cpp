// A real Slurm that keeps accounting (slurmdbd and a MariaDB of its own, started by
// scripts/slurm-test-cluster.sh with SLURM_TEST_ACCOUNTING=1): each batch run stores the peak
// memory and nodes sacct reports, a job gone from the queue before aerun saw it end is judged by
// the books instead of being lost, and an association's MaxSubmitJobs (enforced from the books)
// holds arrays back inside aerun.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "harness.hpp"
#include "slurm_cluster.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// A suite's cluster with slurmdbd and a MariaDB of its own, extra_conf added to slurm.conf.
class SlurmWithBooks : public SlurmTest {
 protected:
  static void start(const char* extra_conf) {
    if (std::system("command -v slurmdbd >/dev/null 2>&1 && command -v mariadbd >/dev/null 2>&1")) {
      skip_ = "slurmdbd/mariadbd not installed (scripts/install-deps.sh --test installs them)";
      return;
    }
    ::setenv("SLURM_TEST_ACCOUNTING", "1", 1);
    ::setenv("SLURM_TEST_EXTRA_CONF", extra_conf, 1);
    SlurmTest::SetUpTestSuite();
    ::unsetenv("SLURM_TEST_ACCOUNTING");
    ::unsetenv("SLURM_TEST_EXTRA_CONF");
  }
};

// Finished jobs leave slurmctld 2 s after they end (purged every 10 s: src/slurmctld/
// controller.c, MAX(10, MinJobAge)), so a test sees one vanish from squeue within seconds.
class SlurmAccounting : public SlurmWithBooks {
 protected:
  static void SetUpTestSuite() { start("MinJobAge=2"); }
};

}  // namespace

TEST_F(SlurmAccounting, EachRunStoresThePeakMemoryAndNodesSacctReports) {
  write_file(dir_ / "c.yaml", R"yaml(case: mem
params: {mb: [0, 80]}
command: python3 -c "import time; b = bytearray({mb} * 1024 * 1024); time.sleep(3)"
resources: {nodes: 1, walltime: 5m, partition: debug}
)yaml");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = sql(db(),
                        "SELECT p.value, r.status, r.max_rss_kb, r.nodes FROM runs r JOIN "
                        "run_params p ON p.run_id=r.id ORDER BY p.num");
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    EXPECT_EQ(row[1], "ok");
    EXPECT_THAT(row[3], ::testing::MatchesRegex("n[12]")) << "nodes";
  }
  // jobacct_gather/linux samples each second: the 80 MiB held for 3 s is seen.
  EXPECT_GT(std::stol(rows[1][2]), 80 * 1024);
  EXPECT_GT(std::stol(rows[0][2]), 0);
  EXPECT_LT(std::stol(rows[0][2]), std::stol(rows[1][2]) - 60 * 1024);
}

TEST_F(SlurmAccounting, AJobGoneFromTheQueueBeforeItsEndWasSeenIsJudgedByTheBooks) {
  // The job script is killed before it can stamp its end: without books, a job that left the
  // queue "before its script ended" is lost.
  write_file(dir_ / "c.yaml", R"(case: killed
command: kill -9 $PPID
resources: {nodes: 1, walltime: 5m, partition: debug}
)");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait"}).code, 0);
  const std::string job = sql1(db(), "SELECT job_id FROM runs");
  ASSERT_FALSE(job.empty());
  // Gone from slurmctld, ended jobs too (MinJobAge=2, purged within ~12 s of its end).
  ASSERT_TRUE(eventually(
      [&] {
        return command_output(SlurmCluster::env() +
                              " squeue --noheader --states=all --jobs=" + job + " 2>/dev/null")
            .empty();
      },
      90));
  const auto c = aerun({"collect", "--wait"});
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "failed") << c.out << c.err;
  EXPECT_EQ(sql1(db(), "SELECT scheduler_state FROM runs"), "FAILED");
  EXPECT_EQ(sql1(db(), "SELECT signal FROM runs"), "9");
  EXPECT_THAT(sql1(db(), "SELECT nodes FROM runs"), ::testing::MatchesRegex("n[12]"));
}

namespace {

// Limits enforced from the books (AccountingStorageEnforce=limits), and root's association
// allowed 4 jobs in the queue (MaxSubmitJobs=4; each array task counts as one).
class SlurmSubmitLimit : public SlurmWithBooks {
 protected:
  // Case `big`: six runs of `sleep SECONDS`, one node each.
  void six_runs(int seconds) {
    write_file(dir_ / "c.yaml", "case: big\nparams: {n: [1, 2, 3, 4, 5, 6]}\ncommand: sleep " +
                                    std::to_string(seconds) +
                                    "; echo \"n={n}\"\nresources: {nodes: 1, walltime: 5m, "
                                    "partition: debug}\n");
  }
  static void SetUpTestSuite() {
    start("AccountingStorageEnforce=limits");
    if (broken_.empty() && skip_.empty() &&
        std::system((SlurmCluster::env() +
                     " sacctmgr -i modify user root set MaxSubmitJobs=4 >/dev/null 2>&1")
                        .c_str()) != 0)
      broken_ = "sacctmgr could not set MaxSubmitJobs=4";
  }
};

}  // namespace

// Issue 29 on a real association limit: arrays of 3 under MaxSubmitJobs=4 — the second is refused
// while the first is queued, held inside aerun (said once) and sent when the first ended.
TEST_F(SlurmSubmitLimit, ArraysPastTheUsersLimitWaitInsideAerunAndAllEndOk) {
  write_file(dir_ / "c.yaml", R"(case: held
params: {n: [1, 2, 3, 4, 5, 6, 7, 8, 9]}
command: sleep 2; echo "n={n}"
resources: {nodes: 1, walltime: 5m, partition: debug}
)");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"}, "AERUN_MAX_ARRAY_SIZE=3");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "9");
  EXPECT_THAT(r.err, HasSubstr("held back (Job violates accounting/QOS policy"));
  // Each held array is said once, however many polls found the limit still reached.
  std::set<std::string> held;
  int lines = 0;
  std::istringstream in(r.err);
  for (std::string line; std::getline(in, line);)
    if (line.find(" held back (") != std::string::npos) {
      ++lines;
      held.insert(line.substr(0, line.find(" held back (")));
    }
  EXPECT_EQ(lines, static_cast<int>(held.size())) << r.err;
}

// The limit is read before submitting (sacctmgr show assoc): an array larger than it is cut to
// it, and the part the quota cannot take yet waits inside aerun.
TEST_F(SlurmSubmitLimit, AnArrayLargerThanTheLimitIsCutToItAndEveryRunEndsOk) {
  six_runs(1);
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("6 runs in 2 arrays of at most 4: your association's "
                               "MaxSubmitJobs = 4 (sacctmgr show assoc)"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "6");
}

// Not following (--no-wait), nothing is there to wait for: what the quota refuses fails, naming
// the limit and where to read it.
TEST_F(SlurmSubmitLimit, WithoutWaitingWhatTheQuotaRefusesFailsNamingWhereToReadIt) {
  six_runs(5);
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='submit_failed'"), "2");
  EXPECT_THAT(sql1(db(), "SELECT reason FROM runs WHERE status='submit_failed' LIMIT 1"),
              HasSubstr("a limit on your jobs in the queue, each array task counting as one: this "
                        "array asked for 2 more; see `sacctmgr show assoc user=$USER "
                        "format=MaxSubmit,MaxJobs`"));
  EXPECT_EQ(aerun({"cancel", "big"}).code, 0);  // the quota is the suite's: give it back
}
