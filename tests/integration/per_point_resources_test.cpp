// Per-point resources on the real binary: `aerun case --dry-run` writes one job script per
// distinct resource set (Slurm and PBS), each with its points' own directives; bad per-point
// values stop everything before a script is written; local runs size the launch line per point.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

namespace aerun::testing {
namespace {

using ::testing::HasSubstr;

// nodes [1, 2] x tag [a, b]; walltime derived from nodes (10 minutes per node).
const char* kCase = R"(case: pp
params:
  nodes: [1, 2]
  tag: [a, b]
derive:
  minutes: nodes * 10
command: echo {tag} on {nodes}
resources:
  nodes: "{nodes}"
  walltime: "{minutes}m"
  tasks_per_node: 1
)";

std::vector<std::string> scripts_of(const Result& r) {
  std::vector<std::string> paths;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') paths.push_back(line);
  return paths;
}

TEST(PerPointResourcesDryRun, SlurmWritesOneArrayPerNodeCountWithItsOwnTime) {
  TempDir dir;
  write_file(dir / "c.yaml", kCase);
  const Result r = run_aerun(dir, {"case", "c.yaml", "--scheduler", "slurm", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("# case pp: 4 runs in 2 slurm job scripts (nothing submitted)"));
  const auto s = scripts_of(r);
  ASSERT_EQ(s.size(), 2u);
  // Sweep order: (1,a) (1,b) (2,a) (2,b): the 1-node array first; 1 * 10 = 10 minutes, 2 * 10 = 20.
  EXPECT_THAT(read_file(s[0]), HasSubstr("#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=1\n"
                                         "#SBATCH --time=00:10:00\n#SBATCH --array=0-1\n"));
  EXPECT_THAT(read_file(s[1]), HasSubstr("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n"
                                         "#SBATCH --time=00:20:00\n#SBATCH --array=0-1\n"));
  EXPECT_EQ(task_variable(s[0], 0), "echo a on 1");
  EXPECT_EQ(task_variable(s[0], 1), "echo b on 1");
  EXPECT_EQ(task_variable(s[1], 0), "echo a on 2");
  EXPECT_EQ(task_variable(s[1], 1), "echo b on 2");
}

TEST(PerPointResourcesDryRun, PbsSelectsEachPointsNodesAndOneJobPerRunWithoutArrays) {
  TempDir dir;
  write_file(dir / "c.yaml", std::string(kCase) + "  array: false\n");
  const Result r = run_aerun(dir, {"case", "c.yaml", "--scheduler", "pbs", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto s = scripts_of(r);
  ASSERT_EQ(s.size(), 4u);  // array: false -> one job per run, in sweep order
  const int nodes[] = {1, 1, 2, 2};
  for (size_t i = 0; i < s.size(); ++i) {
    const std::string text = read_file(s[i]);
    // ncpus = tasks_per_node (1) x cpus_per_task (unset: 1)
    EXPECT_THAT(text, HasSubstr(fmt::format("#PBS -l select={}:ncpus=1:mpiprocs=1\n#PBS -l "
                                            "walltime=00:{}:00\n",
                                            nodes[i], nodes[i] * 10)));
    EXPECT_EQ(text.find("#PBS -J"), std::string::npos);
  }
}

TEST(PerPointResourcesDryRun, ABadPointStopsEverythingNamingFileLineKeyAndPoint) {
  TempDir dir;
  std::string text = kCase;
  text.replace(text.find("nodes: [1, 2]"), 13, "nodes: [1, 0]");
  write_file(dir / "c.yaml", text);
  const Result r = run_aerun(dir, {"case", "c.yaml", "--scheduler", "slurm", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("c.yaml:9:"));  // the `nodes: "{nodes}"` line
  EXPECT_THAT(r.err, HasSubstr("resources.nodes: 0 must be between 1 and 100000 (from '{nodes}' "
                               "at the point nodes=0, tag=a, minutes=0)"));
  EXPECT_FALSE(fs::exists(dir / "results/logs/pp/jobs"));  // no script was written

  write_file(dir / "d.yaml", std::string(kCase) + "  constraint: \"{tagz}\"\n");
  const Result d = run_aerun(dir, {"case", "d.yaml", "--scheduler", "slurm", "--dry-run"});
  EXPECT_EQ(d.code, 2);
  EXPECT_THAT(d.err, HasSubstr("d.yaml:12:"));  // the line after the 11 of kCase
  EXPECT_THAT(d.err, HasSubstr("resources.constraint: placeholder '{tagz}' names no parameter"));
}

TEST(PerPointResourcesLocal, EachPointsLaunchLineSpansItsOwnNodesCheckedAgainstTheHostfile) {
  TempDir dir;
  write_file(dir / "hosts", "h1\nh2\n");
  const std::string c = R"(case: loc
params:
  nodes: [1, 2]
command: "{launch} ./train --n {nodes}"
launcher: {kind: mpich, ranks_per_node: 2, hostfile: hosts}
resources: {nodes: "{nodes}"}
)";
  write_file(dir / "c.yaml", c);
  const Result r = run_aerun(dir, {"case", "c.yaml", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  // 1 node x 2 ranks, then 2 nodes x 2 ranks, from the same hostfile.
  EXPECT_THAT(r.out,
              HasSubstr("mpiexec -n 2 -ppn 2 --hostfile " + (dir / "hosts") + " ./train --n 1\n"));
  EXPECT_THAT(r.out,
              HasSubstr("mpiexec -n 4 -ppn 2 --hostfile " + (dir / "hosts") + " ./train --n 2\n"));
  std::string three = c;
  three.replace(three.find("[1, 2]"), 6, "[1, 3]");
  write_file(dir / "c.yaml", three);
  const Result bad = run_aerun(dir, {"case", "c.yaml", "--dry-run"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("launcher: asks for 3 nodes but only 2 hosts were found"));
}

TEST(PerPointResourcesLocal, EachRunGetsItsOwnPointsRendezvousEnvironment) {
  TempDir dir;
  write_file(dir / "hosts", "h1\nh2\n");
  // The launch line is rendered but not run (echoed away); the run prints what aerun exported.
  write_file(dir / "c.yaml", R"(case: env
params:
  nodes: [1, 2]
command: "echo {launch} >/dev/null; echo nodes={nodes} ws=$WORLD_SIZE nn=$NNODES"
launcher: {kind: mpich, ranks_per_node: 2, hostfile: hosts}
resources: {nodes: "{nodes}"}
)");
  const Result r = run_aerun(dir, {"case", "c.yaml", "--db", dir / "r.db", "--no-progress"});
  ASSERT_EQ(r.code, 0) << r.err;
  // 1 node x 2 ranks per node = 2 ranks; 2 x 2 = 4.
  EXPECT_THAT(read_file(sql1(dir / "r.db", "SELECT log_path FROM runs WHERE command LIKE '%=1 %'")),
              HasSubstr("nodes=1 ws=2 nn=1"));
  EXPECT_THAT(read_file(sql1(dir / "r.db", "SELECT log_path FROM runs WHERE command LIKE '%=2 %'")),
              HasSubstr("nodes=2 ws=4 nn=2"));
}

}  // namespace
}  // namespace aerun::testing
