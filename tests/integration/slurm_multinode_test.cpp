// A 2-node job with fake GPUs on the local Slurm test cluster: the job's ranks see the right
// SLURM_* variables and CUDA_VISIBLE_DEVICES; and a walltime overrun ends as timeout.
#include <fmt/format.h>
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

TEST_F(SlurmMultiNode, TheLaunchLineIsDiscoveredInsideTheJobFromItsOwnNodes) {
  write_file(dir_ / "c.yaml", R"(case: launch
command: "{launch} bash -c 'echo rank=$SLURM_PROCID of=$SLURM_NTASKS host=$SLURMD_NODENAME master=$MASTER_ADDR'"
launcher: {kind: srun, ranks_per_node: 2}
resources: {nodes: 2, tasks_per_node: 2, walltime: 2m}
)");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string log = read_file(sql1(db(), "SELECT log_path FROM runs"));
  for (const char* line : {"rank=0 of=4 host=n1 master=n1", "rank=1 of=4 host=n1 master=n1",
                           "rank=2 of=4 host=n2 master=n1", "rank=3 of=4 host=n2 master=n1"})
    EXPECT_THAT(log, HasSubstr(line));
}

TEST_F(SlurmMultiNode, InsideAnAllocationRunsAreJobStepsAndNothingIsSubmitted) {
  write_file(dir_ / "c.yaml",
             "case: alloc\nparams: {i: [1, 2]}\n"
             "command: echo \"i={i} step=$SLURM_STEP_ID job=$SLURM_JOB_ID\"\n");
  const auto r =
      run_aerun(dir_, {"case", "c.yaml", "--scheduler", "slurm"},
                SlurmCluster::env() + " PATH=" + aerun::shell_quote(std::getenv("PATH")) +
                    " timeout 60 salloc -N1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("nothing is submitted"));
  const auto rows = sql(db(), "SELECT status, scheduler, job_id FROM runs");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], rows[1]);  // one allocation for both runs
  EXPECT_EQ(rows[0][0] + " " + rows[0][1], "ok slurm");
  const std::string job = rows[0][2];
  EXPECT_THAT(read_file(sql1(db(), "SELECT log_path FROM runs WHERE command LIKE '%i=1%'")),
              HasSubstr("i=1 step=0 job=" + job));
  EXPECT_THAT(read_file(sql1(db(), "SELECT log_path FROM runs WHERE command LIKE '%i=2%'")),
              HasSubstr("i=2 step=1 job=" + job));
}

TEST_F(SlurmMultiNode, PerPointNodesGiveEachPointItsOwnAllocationAndLaunchLine) {
  // nodes [1, 2] x tag [a, b]: two arrays (one per node count), each task a job of its point's
  // size; the srun launch line inside the job spans the job's own nodes (1 rank per node).
  write_file(dir_ / "c.yaml", R"(case: pernode
params:
  nodes: [1, 2]
  tag: [a, b]
command: "{launch} bash -c 'echo tag={tag} want={nodes} got=$SLURM_JOB_NUM_NODES rank=$SLURM_PROCID of=$SLURM_NTASKS'"
launcher: {kind: srun, ranks_per_node: 1}
resources: {nodes: "{nodes}", tasks_per_node: 1, walltime: 2m}
)");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  ASSERT_EQ(r.code, 0) << r.err;
  // Two submissions, each an array of the two tags.
  EXPECT_EQ(sql1(db(), "SELECT count(DISTINCT substr(job_id, 1, instr(job_id, '_'))) FROM runs"),
            "2");
  ASSERT_EQ(sql1(db(), "SELECT count(*) FROM runs"), "4");
  for (const char* tag : {"a", "b"}) {
    for (const int nodes : {1, 2}) {
      const std::string log = read_file(
          sql1(db(), fmt::format("SELECT log_path FROM runs WHERE command LIKE '%tag={}%want={}%'",
                                 tag, nodes)));
      EXPECT_THAT(log, HasSubstr(fmt::format("tag={} want={} got={} rank=0 of={}", tag, nodes,
                                             nodes, nodes)));
      if (nodes == 2) {
        EXPECT_THAT(log, HasSubstr(fmt::format("tag={} want=2 got=2 rank=1 of=2", tag)));
      }
    }
  }
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status = 'ok'"), "4");
}
