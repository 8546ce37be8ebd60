// A 2-node job with fake GPUs on the local Slurm test cluster: the job's ranks see the right
// SLURM_* variables and CUDA_VISIBLE_DEVICES; and a walltime overrun ends as timeout.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "slurm_cluster.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {
class SlurmMultiNode : public SlurmTest {};
}  // namespace

TEST_F(SlurmMultiNode, TwoNodesWithGpusPerNodeGiveEachRankItsNodeAndGpus) {
  write_file(dir_ / "c.yaml", R"(case: gpus
command: >-
  srun bash -c 'echo "rank=$SLURM_PROCID node=$SLURM_NODEID of=$SLURM_NNODES
  ntasks=$SLURM_NTASKS host=$SLURMD_NODENAME cvd=$CUDA_VISIBLE_DEVICES"'
resources:
  nodes: 2
  tasks_per_node: 1
  gpus_per_node: 2
  walltime: 2m
)");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string log = read_file(sql1(db(), "SELECT log_path FROM runs"));
  EXPECT_THAT(log, HasSubstr("rank=0 node=0 of=2 ntasks=2 host=n1 cvd=0,1"));
  EXPECT_THAT(log, HasSubstr("rank=1 node=1 of=2 ntasks=2 host=n2 cvd=0,1"));
  EXPECT_EQ(sql1(db(), "SELECT status || ' ' || scheduler_state FROM runs"), "ok COMPLETED");
}

TEST_F(SlurmMultiNode, AJobPastItsWalltimeIsStoppedBySlurmAndStoredAsTimeout) {
  // Slurm checks time limits about every 30 s: this takes 60-90 s (the only such test).
  write_file(dir_ / "c.yaml",
             "case: late\ncommand: echo begun; sleep 600\nresources: {walltime: 1m}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(sql1(db(), "SELECT status || ' ' || scheduler_state FROM runs"), "timeout TIMEOUT");
  EXPECT_THAT(sql1(db(), "SELECT reason FROM runs"), HasSubstr("DUE TO TIME LIMIT"));
  EXPECT_GE(std::stod(sql1(db(), "SELECT wall_s FROM runs")), 60.0);
}
