// Ranks, ranks per node and hosts are checked before anything starts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/launch/launcher.hpp"
#include "machines.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

LauncherSpec mpich() {
  LauncherSpec s;
  s.kind = "mpich";
  s.loc = SourceLoc{"fig.yaml", 7, 1};
  return s;
}

std::string error_of(const LauncherSpec& s, const ClusterInfo& c) {
  try {
    plan_launch(s, c);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

TEST(PlanLaunch, ByDefaultEveryGpuOfEveryHostGetsARank) {
  const LaunchLayout l = plan_launch(mpich(), testing::aurora());
  EXPECT_EQ(l.nodes, 4);
  EXPECT_EQ(l.ranks_per_node, 12);
  EXPECT_EQ(l.ranks, 48);
  EXPECT_EQ(l.depth, 104 / 12);  // physical cores per rank
}

TEST(PlanLaunch, FewerRanksUseTheFirstHosts) {
  LauncherSpec s = mpich();
  s.ranks = 4;
  const LaunchLayout l = plan_launch(s, testing::polaris());
  EXPECT_EQ(l.nodes, 1);
  EXPECT_EQ(l.ranks_per_node, 4);
  EXPECT_THAT(l.hosts, ElementsAre(testing::polaris().hosts[0]));
}

TEST(PlanLaunch, WithoutGpusOneRankPerNodeIsChosenAndSaidSo) {
  ClusterInfo c = testing::polaris();
  c.gpus_per_host = 0;
  c.gpu_source = "none";
  const LaunchLayout l = plan_launch(mpich(), c);
  EXPECT_EQ(l.ranks_per_node, 1);
  EXPECT_EQ(l.ranks, 2);
  EXPECT_THAT(l.note, HasSubstr("no GPU found (source: none): one rank per node"));
  EXPECT_THAT(l.note, HasSubstr("--ranks-per-node"));
  LauncherSpec s = mpich();
  s.ranks_per_node = 2;
  EXPECT_EQ(plan_launch(s, c).ranks, 4);
}

TEST(PlanLaunch, MoreRanksThanSlotsIsAnError) {
  LauncherSpec s = mpich();
  s.ranks = 12;
  EXPECT_THAT(error_of(s, testing::polaris()),
              HasSubstr("12 ranks are more than the 8 slots (2 nodes x 4 ranks per node)"));
}

TEST(PlanLaunch, RanksNotDivisibleByNodesIsAnError) {
  LauncherSpec s = mpich();
  s.ranks = 7;
  EXPECT_THAT(error_of(s, testing::polaris()),
              HasSubstr("7 ranks cannot be spread evenly over 2 nodes"));
}

TEST(PlanLaunch, MoreNodesThanHostsIsAnError) {
  LauncherSpec s = mpich();
  s.nodes = 3;
  EXPECT_THAT(error_of(s, testing::polaris()), HasSubstr("asks for 3 nodes but only 2 hosts"));
}

TEST(PlanLaunch, SlotsWrittenInTheHostfileOrAllocationAreLimits) {
  ClusterInfo c = testing::perlmutter();
  c.slots = {2, 2};  // SLURM_JOB_CPUS_PER_NODE=2(x2): the CPUs the job holds
  EXPECT_THAT(error_of(mpich(), c), HasSubstr("8 ranks are more than the 4 slots the allocation"));
}

TEST(PlanLaunch, TheNoneLauncherIsOneProcess) {
  LauncherSpec s;
  s.ranks = 2;
  EXPECT_THAT(error_of(s, testing::polaris()), HasSubstr("runs a single process"));
}

TEST(RendezvousEnv, FirstHostPortWorldSizeAndTheRankVariablesToRead) {
  EXPECT_THAT(rendezvous_env(mpich(), testing::polaris()),
              ElementsAre(EnvVar{"MASTER_ADDR", "x3205c0s25b0n0.hsn.cm.polaris.alcf.anl.gov"},
                          EnvVar{"MASTER_PORT", "29500"}, EnvVar{"WORLD_SIZE", "8"},
                          EnvVar{"NNODES", "2"}, EnvVar{"AERUN_RANK_VAR", "PMI_RANK"},
                          EnvVar{"AERUN_LOCAL_RANK_VAR", "MPI_LOCALRANKID"},
                          EnvVar{"AERUN_SIZE_VAR", "PMI_SIZE"}));
  LauncherSpec s;
  s.kind = "srun";
  s.master_port = 6000;
  const auto env = rendezvous_env(s, testing::perlmutter());
  EXPECT_THAT(env, ::testing::Contains(EnvVar{"MASTER_PORT", "6000"}));
  EXPECT_THAT(env, ::testing::Contains(EnvVar{"AERUN_LOCAL_RANK_VAR", "SLURM_LOCALID"}));
  s.kind = "openmpi";
  EXPECT_THAT(rendezvous_env(s, testing::perlmutter()),
              ::testing::Contains(EnvVar{"AERUN_RANK_VAR", "OMPI_COMM_WORLD_RANK"}));
}

}  // namespace
}  // namespace aerun
