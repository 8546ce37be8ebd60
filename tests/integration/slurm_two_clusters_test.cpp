// Two real Slurm clusters of different names on this machine stand for two systems (issue 41): the
// test cluster started twice, each with its own ports, state, munged and ClusterName
// (SLURM_TEST_CLUSTER_NAME). The same case, run from each cluster's login shell (its SLURM_CONF)
// with no --system, is recognised by the cluster's name in that slurm.conf, lands as two runs,
// each current, and one table shows both clusters' columns.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "slurm_cluster.hpp"

using namespace aerun::testing;
using aerun::shell_quote;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

// A second test cluster, named `name`, stopped with this object (and by the script's watchdog
// when this process dies).
class SecondCluster {
 public:
  explicit SecondCluster(const std::string& name) {
    const std::string cmd = "SLURM_TEST_CLUSTER_NAME=" + name + " bash " +
                            shell_quote(SlurmCluster::script()) + " start " +
                            shell_quote(dir_ / "cluster") + " " + std::to_string(getpid()) + " >" +
                            shell_quote(dir_ / "start.log") + " 2>&1";
    started_ = std::system(cmd.c_str()) == 0;
  }
  ~SecondCluster() {
    const std::string cmd = "bash " + shell_quote(SlurmCluster::script()) + " stop " +
                            shell_quote(dir_ / "cluster") + " >/dev/null 2>&1";
    [[maybe_unused]] const int rc = std::system(cmd.c_str());
  }
  bool started() const { return started_; }
  std::string why() const { return read_file(dir_ / "start.log"); }
  std::string env() const { return "SLURM_CONF=" + shell_quote(dir_ / "cluster/slurm.conf"); }

 private:
  TempDir dir_;
  bool started_ = false;
};

class TwoSlurmClusters : public SlurmTest {};

}  // namespace

TEST_F(TwoSlurmClusters, OneCaseRunOnTwoClustersIsTwoSystemsSideBySideInOneTable) {
  SecondCluster beta("aerunbeta");
  ASSERT_TRUE(beta.started()) << beta.why();
  write_file(dir_ / "mine/alpha.yaml",
             "name: alpha\nscheduler: slurm\nrecognise: {slurm_cluster: aeruntest}\n");
  write_file(dir_ / "mine/beta.yaml",
             "name: beta\nscheduler: slurm\nrecognise: {slurm_cluster: aerunbeta}\n");
  write_file(dir_ / "c.yaml", R"yaml(case: twoclusters
params: {x: [1, 2]}
command: 'echo "cluster=$SLURM_CLUSTER_NAME t: {x}.5"'
metrics: {t: 't: ([0-9.]+)'}
resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}
tables:
  bysys: {rows: [x], pivot: system, columns: [t]}
)yaml");
  const std::string systems = "AERUN_SYSTEMS=" + shell_quote(dir_ / "mine") + " NERSC_HOST=";
  // On the first cluster's login shell (the suite's SLURM_CONF): recognised as alpha.
  auto r = aerun({"case", "c.yaml"}, systems);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("system alpha (Slurm cluster 'aeruntest'"));
  // On the second's: beta. Its SLURM_CONF comes after the suite's, so it wins.
  r = run_aerun(dir_, {"case", "c.yaml"}, SlurmCluster::env() + " " + systems + " " + beta.env());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("system beta (Slurm cluster 'aerunbeta'"));
  // Four runs, each current, each ran where its system says.
  const auto rows =
      sql(db(),
          "SELECT r.system, p.value, r.status, r.scheduler FROM runs r JOIN run_params"
          " p ON p.run_id = r.id ORDER BY r.system, p.value");
  const std::vector<std::vector<std::string>> want{{"alpha", "1", "ok", "slurm"},
                                                   {"alpha", "2", "ok", "slurm"},
                                                   {"beta", "1", "ok", "slurm"},
                                                   {"beta", "2", "ok", "slurm"}};
  EXPECT_EQ(rows, want);
  for (const auto& [system, cluster] : std::vector<std::pair<std::string, std::string>>{
           {"alpha", "aeruntest"}, {"beta", "aerunbeta"}})
    EXPECT_THAT(
        read_file(sql1(db(), "SELECT log_path FROM runs WHERE system = '" + system + "' LIMIT 1")),
        HasSubstr("cluster=" + cluster));
  EXPECT_THAT(run_aerun(dir_, {"table", "bysys", "--cases", "c.yaml"}).out,
              AllOf(HasSubstr("| x | alpha | beta |\n"), HasSubstr("| 1 | 1.5 | 1.5 |\n"),
                    HasSubstr("| 2 | 2.5 | 2.5 |\n")));
}
