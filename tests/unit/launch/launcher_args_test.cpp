// to_args / from_args (launcher_args.hpp): a case's launcher reaches `aerun env` inside a job
// unchanged.
#include "aerun/launch/launcher_args.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string_view>

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

LauncherSpec every_setting() {
  LauncherSpec l;
  l.kind = "pals";
  l.ranks = 24;
  l.ranks_per_node = 12;
  l.nodes = 2;
  l.cpu_bind = "list:1-8:9-16";
  l.depth = 8;
  l.gpu_bind = "list:0.0:0.1";
  l.gpus_per_node = 12;
  l.hostfile = "/var/spool/pbs/aux/123.host file";
  l.mpi = "pmix";
  l.program = "mpiexec.hydra";
  l.master_port = 29600;
  l.extra_args = {"--verbose", "--line-buffer"};
  l.env = {"NCCL_DEBUG", "PATH"};
  return l;
}

TEST(LauncherArgs, EverySettingSurvivesTheRoundTrip) {
  const LauncherSpec l = every_setting();
  const LauncherSpec back = from_args(to_args(l));
  EXPECT_EQ(back.kind, l.kind);
  EXPECT_EQ(back.ranks, l.ranks);
  EXPECT_EQ(back.ranks_per_node, l.ranks_per_node);
  EXPECT_EQ(back.nodes, l.nodes);
  EXPECT_EQ(back.cpu_bind, l.cpu_bind);
  EXPECT_EQ(back.depth, l.depth);
  EXPECT_EQ(back.gpu_bind, l.gpu_bind);
  EXPECT_EQ(back.gpus_per_node, l.gpus_per_node);
  EXPECT_EQ(back.hostfile, l.hostfile);
  EXPECT_EQ(back.mpi, l.mpi);
  EXPECT_EQ(back.program, l.program);
  EXPECT_EQ(back.master_port, l.master_port);
  EXPECT_EQ(back.extra_args, l.extra_args);
  EXPECT_EQ(back.env, l.env);
  EXPECT_EQ(to_args(back), to_args(l));
}

TEST(LauncherArgs, UnsetSettingsStayUnsetSoDiscoveryFillsThem) {
  LauncherSpec l;
  l.kind = "srun";
  EXPECT_THAT(to_args(l), ElementsAre("--launcher=srun", "--master-port=29500"));
  const LauncherSpec back = from_args(to_args(l));
  EXPECT_FALSE(back.ranks);
  EXPECT_FALSE(back.ranks_per_node);  // one rank per GPU
  EXPECT_FALSE(back.gpus_per_node);
}

TEST(LauncherArgs, EveryFlagOfTheTableIsWrittenForAFullLauncher) {
  // A new setting added to LauncherSpec and to the table must be written by to_args too.
  const auto args = to_args(every_setting());
  for (const LauncherFlag& f : launcher_flags()) {
    const std::string prefix = "--" + std::string(f.name) + "=";
    bool found = false;
    for (const auto& a : args) found = found || a.rfind(prefix, 0) == 0;
    EXPECT_TRUE(found) << prefix;
  }
}

TEST(LauncherArgs, ABadValueNamesItsFlag) {
  for (const auto& [arg, problem] :
       {std::pair{"--ranks=x", "whole number"}, std::pair{"--master-port=70000", "1 to 65535"},
        std::pair{"--launcher=mpirun", "unknown launcher"},
        std::pair{"--ranks-per-node=2x", "whole number"}, std::pair{"--cores=2", "no such"}}) {
    try {
      from_args({arg});
      ADD_FAILURE() << arg;
    } catch (const InputError& e) {
      const std::string_view a(arg);
      EXPECT_EQ(e.key(), a.substr(0, a.find('='))) << arg;
      EXPECT_THAT(e.what(), HasSubstr(problem)) << arg;
    }
  }
}

}  // namespace
}  // namespace aerun
