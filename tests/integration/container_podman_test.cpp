// Runs inside a real image (issue 31): Debian's podman 4.3 runs a local busybox image built by the
// test itself (podman_image.hpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "harness.hpp"
#include "podman_image.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

class PodmanImage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { skip_ = PodmanTestImage::build(); }
  static void TearDownTestSuite() { PodmanTestImage::remove(); }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
  }
  static std::string env() { return PodmanTestImage::env(); }
  static std::string log_of(const TempDir& d) {
    return command_output("cat " + d / "results/logs" + "/*/*.log");
  }
  static std::string id_of(const std::string& image) { return PodmanTestImage::id_of(image); }

  static inline std::string skip_;
  const std::string image_ = PodmanTestImage::image();
  const std::string repo_ = PodmanTestImage::repo();
};

TEST_F(PodmanImage, ACaseWithNoLauncherRunsItsWholeCommandInsideTheImage) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: inimage\nenv: {GREETING: hello}\n"
             "container: {image: '" +
                 image_ +
                 "', runtime: podman, gpus: none}\n"
                 "metrics: {loss: 'loss=([0-9.]+)'}\n"
                 "command: cat /opt/only-in-image/marker && echo \"greeting=$GREETING "
                 "attempt=$AERUN_ATTEMPT\" && echo loss=0.5 && pwd\n");
  const auto r = run_aerun(d, {"case", "c.yaml"}, env());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string log = log_of(d);
  EXPECT_THAT(log, HasSubstr("image-marker-31\n"));  // a file only the image holds
  // aerun's variables and the case's env pass in by name; the run's directory is entered.
  EXPECT_THAT(log, HasSubstr("greeting=hello attempt=1\n"));
  EXPECT_THAT(log, HasSubstr("\n" + d.path().string() + "\n"));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT status FROM runs"), "ok");
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT value FROM metrics WHERE name='loss'"), "0.5");
}

TEST_F(PodmanImage, UnderMpiexecEachRankIsAContainerThatSeesItsRank) {
  TempDir d;
  write_file(d / "c.yaml", "case: ranks\ncontainer: {image: '" + image_ +
                               "', runtime: podman, gpus: none}\n"
                               "launcher: {kind: openmpi, ranks: 2, ranks_per_node: 2}\n"
                               "command: \"{launch} sh -c 'echo rank=$OMPI_COMM_WORLD_RANK of "
                               "$OMPI_COMM_WORLD_SIZE; cat /opt/only-in-image/marker'\"\n");
  const auto r = run_aerun(d, {"case", "c.yaml"}, env());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string log = log_of(d);
  EXPECT_THAT(log, HasSubstr("rank=0 of 2\n"));
  EXPECT_THAT(log, HasSubstr("rank=1 of 2\n"));
  EXPECT_EQ(command_output("grep -c image-marker-31 " + d / "results/logs" + "/*/*.log"), "2\n");
}

TEST_F(PodmanImage, EachRunKeepsItsImagesIdAndDiffTellsTwoImagesApart) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: ids\nparams: {tag: [1, 2]}\n"
             "container: {image: '" +
                 repo_ +
                 ":{tag}', runtime: podman, gpus: none}\n"
                 "command: cat /opt/only-in-image/marker\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}, env()).code, 0);
  const std::string db = d / "results/aerun.db";
  const std::string id1 = id_of(image_), id2 = id_of(repo_ + ":2");
  ASSERT_FALSE(id1.empty());
  ASSERT_NE(id1, id2);
  EXPECT_EQ(sql1(db, "SELECT container_image || ' ' || container_digest FROM runs ORDER BY id"),
            image_ + " sha256:" + id1);
  EXPECT_EQ(sql1(db, "SELECT container_digest FROM runs ORDER BY id DESC"), "sha256:" + id2);
  EXPECT_THAT(command_output("cat " + d / "results/logs" + "/*/*.log"),
              HasSubstr("image-marker-2\n"));
  const std::string k1 = sql1(db, "SELECT key FROM runs ORDER BY id").substr(0, 10);
  const std::string k2 = sql1(db, "SELECT key FROM runs ORDER BY id DESC").substr(0, 10);
  const auto shown = run_aerun(d, {"show", k1});
  EXPECT_THAT(shown.out, HasSubstr("image       " + image_ + "  (sha256:" + id1.substr(0, 12)));
  const auto diff = run_aerun(d, {"diff", k1, k2});
  EXPECT_THAT(diff.out, HasSubstr("image digest"));
  EXPECT_THAT(diff.out, HasSubstr(repo_ + ":2"));
}

TEST_F(PodmanImage, TheEnvironmentRecordIsTakenInsideTheImageToo) {
  TempDir d;
  write_file(d / "c.yaml", "case: rec\ncontainer: {image: '" + image_ +
                               "', runtime: podman}\n"
                               "command: echo hi\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}, env() + " AERUN_ENV_CACHE=off").code, 0);
  const std::string key = sql1(d / "results/aerun.db", "SELECT key FROM runs").substr(0, 10);
  const auto r = run_aerun(d, {"show", key, "--env"});
  ASSERT_EQ(r.code, 0) << r.err;
  // The image, its id, and its own OS (a file only the image has); the host's items stay.
  const std::string id = id_of(image_);
  EXPECT_THAT(r.out, HasSubstr("== image ==\n" + image_ + "\ndigest sha256:" + id + "\n"));
  EXPECT_THAT(r.out, HasSubstr("== image: os ==\nID=aerun-test-image\n"));
  EXPECT_THAT(r.out, HasSubstr("== os =="));
}

TEST_F(PodmanImage, AnImageRetaggedUnderTheSameNameRunsTheCaseAgain) {
  TempDir d;
  const std::string current = repo_ + ":current";
  ASSERT_EQ(std::system((env() + " podman tag " + image_ + " " + current).c_str()), 0);
  write_file(d / "c.yaml", "case: retag\ncontainer: {image: '" + current +
                               "', runtime: podman}\ncommand: cat /opt/only-in-image/marker\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}, env()).code, 0);
  auto r = run_aerun(d, {"case", "c.yaml"}, env());
  EXPECT_THAT(r.err, HasSubstr("1 reused"));  // the same image: the run stands
  // The name now names the other image: its run is made again, in it.
  ASSERT_EQ(std::system((env() + " podman tag " + repo_ + ":2 " + current).c_str()), 0);
  r = run_aerun(d, {"case", "c.yaml"}, env());
  // (untag names the tag: with the image alone it would drop every name of it)
  std::system((env() + " podman untag " + current + " " + current + " >/dev/null 2>&1").c_str());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("0 reused"));
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT attempt || ' ' || container_digest FROM runs"),
            "2 sha256:" + id_of(repo_ + ":2"));
  EXPECT_THAT(log_of(d), HasSubstr("image-marker-2"));
}

TEST_F(PodmanImage, ARunsOwnDirectoryWithItsCopiesAndLinksWorksInsideTheImage) {
  TempDir d;
  write_file(d / "data.txt", "linked-data\n");
  write_file(d / "conf.txt", "copied-conf\n");
  write_file(d / "c.yaml", "case: rd\ncontainer: {image: '" + image_ +
                               "', runtime: podman}\nrundir: {copy: [conf.txt], link: [data.txt]}\n"
                               "command: cat data.txt conf.txt && echo \"in {rundir}\" && pwd\n");
  const auto r = run_aerun(d, {"case", "c.yaml"}, env());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string rundir = sql1(d / "results/aerun.db", "SELECT rundir FROM runs");
  ASSERT_FALSE(rundir.empty());
  const std::string log = read_file(sql1(d / "results/aerun.db", "SELECT log_path FROM runs"));
  EXPECT_THAT(log, HasSubstr("linked-data\ncopied-conf\n"));  // the link reaches the workdir
  EXPECT_THAT(log, HasSubstr("in " + rundir + "\n" + rundir + "\n"));
}

TEST_F(PodmanImage, NoContainerRunsTheSameCaseOnTheHost) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: host\ncontainer: {image: '" + image_ +
                 "', runtime: podman, gpus: none}\n"
                 "command: test -e /opt/only-in-image/marker && echo inside || echo outside\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--no-container"}, env()).code, 0);
  EXPECT_THAT(log_of(d), HasSubstr("outside\n"));
}

}  // namespace
