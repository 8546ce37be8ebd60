// The lines of the runtimes Debian 12 lacks (Apptainer/Singularity, Enroot, Shifter, podman-hpc)
// run through `aerun case` against stand-ins that accept only each runtime's documented grammar
// and start the program as the runtime would as far as aerun relies on it: its environment (kept,
// or cleared but for the names passed) and its directory (tests/fixtures/containers, whose
// script cites each rule). Real Podman runs in container_podman_test.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

class ContainerStandin : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (std::system("command -v python3 >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
    write_file(d_ / "img.sif", "not really an image\n");
    write_file(d_ / "in-workdir.txt", "from-the-workdir\n");
  }
  std::string env() const {
    return "PATH=" + std::string(AERUN_FIXTURES) + "/containers:" + getenv("PATH") +
           " STANDIN_LOG=" + d_ / "standin.log";
  }
  std::string image() const {
    const std::string r = GetParam();
    return r == "shifter" ? "docker:nersc/pt:1" : r == "podman-hpc" ? "nersc/pt:1" : "img.sif";
  }
  std::string log() const { return command_output("cat " + d_ / "results/logs" + "/*/*.log"); }

  TempDir d_;
};

TEST_P(ContainerStandin, AWholeCommandRunsThroughTheRuntimeInTheRunsDirectoryWithItsVariables) {
  write_file(d_ / "c.yaml", std::string("case: sc\nenv: {GREETING: hello}\n") +
                                "container: {image: '" + image() + "', runtime: " + GetParam() +
                                ", mounts: ['.:/data:ro'], env: {INSIDE: 'a b'}}\n"
                                "command: cat in-workdir.txt && echo \"greet=$GREETING "
                                "inside=$INSIDE attempt=$AERUN_ATTEMPT\" && pwd\n");
  const auto r = run_aerun(d_, {"case", "c.yaml"}, env());
  ASSERT_EQ(r.code, 0) << r.err << log();
  const std::string out = log();
  EXPECT_THAT(out, HasSubstr("from-the-workdir\n"));
  EXPECT_THAT(out, HasSubstr("greet=hello inside=a b attempt=1\n"));
  EXPECT_THAT(out, HasSubstr("\n" + d_.path().string() + "\n"));
  const std::string started = read_file(d_ / "standin.log");
  EXPECT_THAT(started, HasSubstr("\"runtime\": \"" + std::string(GetParam()) + "\""));
  EXPECT_THAT(started, HasSubstr(d_.path().string() + (GetParam() == std::string("enroot")
                                                           ? ":/data:none:rbind,x-create=auto,ro"
                                                           : ":/data:ro")));
}

TEST_P(ContainerStandin, UnderMpiexecEachRankStartsItsOwnContainerAndSeesItsRank) {
  write_file(d_ / "c.yaml", "case: sr\ncontainer: {image: '" + image() +
                                "', runtime: " + GetParam() +
                                "}\nlauncher: {kind: openmpi, ranks: 2, ranks_per_node: 2}\n"
                                "command: \"{launch} sh -c 'echo rank=$OMPI_COMM_WORLD_RANK'\"\n");
  const auto r = run_aerun(d_, {"case", "c.yaml"}, env());
  ASSERT_EQ(r.code, 0) << r.err << log();
  EXPECT_THAT(log(), HasSubstr("rank=0\n"));
  EXPECT_THAT(log(), HasSubstr("rank=1\n"));
  // Two ranks, and the start that took the environment record inside the image.
  EXPECT_EQ(command_output("wc -l < " + d_ / "standin.log"), "3\n");
}

INSTANTIATE_TEST_SUITE_P(EachRuntime, ContainerStandin,
                         ::testing::Values("apptainer", "singularity", "enroot", "shifter",
                                           "podman-hpc"),
                         [](const auto& info) {
                           std::string n = info.param;
                           return n == "podman-hpc" ? std::string("podman_hpc") : n;
                         });

}  // namespace
