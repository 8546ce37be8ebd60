// A case that names an image, run as jobs of the real Slurm test cluster (issue 31): each job's
// run starts inside the local podman image (podman_image.hpp), as an array task and, with a
// launcher, as ranks of srun.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "podman_image.hpp"
#include "slurm_cluster.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

class SlurmContainer : public SlurmTest {
 protected:
  static void SetUpTestSuite() {
    SlurmTest::SetUpTestSuite();
    if (skip_.empty() && broken_.empty()) podman_ = PodmanTestImage::build();
  }
  static void TearDownTestSuite() {
    PodmanTestImage::remove();
    SlurmTest::TearDownTestSuite();
  }
  void SetUp() override {
    SlurmTest::SetUp();
    if (!podman_.empty()) GTEST_SKIP() << podman_;
  }
  static inline std::string podman_;
};

TEST_F(SlurmContainer, EachJobsRunStartsInsideTheImageAndKeepsItsId) {
  write_file(dir_ / "c.yaml",
             "case: jobimg\nparams: {n: [1, 2]}\n"
             "container: {image: '" +
                 PodmanTestImage::image() +
                 "', runtime: podman}\n"
                 "metrics: {loss: 'loss ([0-9.]+)'}\n"
                 "command: cat /opt/only-in-image/marker && echo \"loss 0.{n} on $SLURM_JOB_ID\"\n"
                 "resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"}, PodmanTestImage::env());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sql(db(), "SELECT status, container_image, container_digest FROM runs ORDER BY id"),
            (std::vector<std::vector<std::string>>{
                {"ok", PodmanTestImage::image(),
                 "sha256:" + PodmanTestImage::id_of(PodmanTestImage::image())},
                {"ok", PodmanTestImage::image(),
                 "sha256:" + PodmanTestImage::id_of(PodmanTestImage::image())}}));
  EXPECT_EQ(sql1(db(), "SELECT group_concat(value, ' ') FROM metrics WHERE name='loss'"),
            "0.1 0.2");
  const std::string logs = command_output("cat " + dir_ / "results/logs" + "/*/*.log");
  EXPECT_THAT(logs, HasSubstr("image-marker-31\n"));
}

TEST_F(SlurmContainer, UnderSrunEachRankIsAContainerThatSeesItsSlurmRank) {
  write_file(
      dir_ / "c.yaml",
      "case: jobranks\n"
      "container: {image: '" +
          PodmanTestImage::image() +
          "', runtime: podman}\n"
          "launcher: {kind: srun, nodes: 1, ranks_per_node: 2}\n"
          "command: \"{launch} sh -c 'echo rank=$SLURM_PROCID; cat /opt/only-in-image/marker'\"\n"
          "resources: {nodes: 1, tasks_per_node: 2, walltime: 5m, partition: debug}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"}, PodmanTestImage::env());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string logs = command_output("cat " + dir_ / "results/logs" + "/*/*.log");
  EXPECT_THAT(logs, HasSubstr("rank=0\n"));
  EXPECT_THAT(logs, HasSubstr("rank=1\n"));
  EXPECT_EQ(command_output("grep -c image-marker-31 " + dir_ / "results/logs" + "/*/*.log"), "2\n");
}

}  // namespace
