// A case with `launcher:` runs its command through a real MPI launcher: every rank once.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "launcher_mpi_helpers.hpp"

namespace aerun::testing {
namespace {

TEST(LauncherCase, TheLaunchPlaceholderStartsEveryRankOfEveryRunOnce) {
  if (!have("mpiexec.hydra")) GTEST_SKIP() << "mpiexec.hydra missing (Debian: mpich)";
  TempDir d;
  write_file(d / "hf", "localhost:2\n127.0.0.1:2\n");
  write_print_rank(d);
  write_file(d / "ranks.yaml", R"yaml(case: ranks
params: {run: [1, 2]}
launcher: {kind: mpich, program: mpiexec.hydra, ranks_per_node: 2, hostfile: hf}
command: "BARRIER={run} {launch} ./print_rank.sh && echo run={run}"
timeout: 60
)yaml");
  // BARRIER: the ranks of each run wait for each other (launcher_mpi_helpers.hpp says why).
  const auto dry = run_aerun(d, {"case", "ranks.yaml", "--dry-run"});
  ASSERT_EQ(dry.code, 0) << dry.err;
  EXPECT_THAT(dry.out, ::testing::HasSubstr("mpiexec.hydra -n 4 -ppn 2 --hostfile"));
  const auto r = run_aerun(d, {"case", "ranks.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string log = sql1(d / "results/aerun.db", "SELECT log_path FROM runs LIMIT 1");
  const auto seen = ranks_seen(read_file(log));
  ASSERT_EQ(seen.size(), 4u) << read_file(log);
  for (int rank = 0; rank < 4; ++rank) {
    EXPECT_EQ(seen.at(rank).first, 1);
    EXPECT_EQ(seen.at(rank).second.size, 4);
    EXPECT_EQ(seen.at(rank).second.master, "localhost");
  }
}

TEST(LauncherCase, MoreRanksThanSlotsIsABadInputBeforeAnythingStarts) {
  TempDir d;
  write_file(d / "hf", "localhost:1\n");
  write_file(d / "c.yaml",
             "case: big\nlauncher: {kind: mpich, ranks: 8, ranks_per_node: 8, "
             "hostfile: hf}\ncommand: '{launch} true'\n");
  const auto r = run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("c.yaml:2"));
  EXPECT_FALSE(fs::exists(d / "results/aerun.db"));
}

TEST(LauncherCase, RanksSweptAsAParameterGiveEachPointItsOwnLaunchLine) {
  TempDir d;
  write_file(d / "hf", "n1:4\nn2:4\n");
  write_file(d / "scale.yaml", R"yaml(case: scale
params: {np: [1, 2, 4, 8]}
derive: {per_node: "np > 4 ? 4 : np"}
launcher: {kind: mpich, ranks: "{np}", ranks_per_node: "{per_node}", hostfile: hf}
command: "{launch} ./train --np {np}"
)yaml");
  const auto r = run_aerun(d, {"case", "scale.yaml", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("mpiexec -n 1 -ppn 1 --hostfile"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("mpiexec -n 4 -ppn 4 --hostfile"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("mpiexec -n 8 -ppn 4 --hostfile"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("./train --np 8"));
}

TEST(LauncherCase, APerPointCountThatIsNoNumberNamesItsLineKeyAndPoint) {
  TempDir d;
  write_file(d / "hf", "n1:4\n");
  write_file(d / "c.yaml", R"yaml(case: bad
params: {np: [2, zero]}
launcher: {kind: mpich, ranks: "{np}", ranks_per_node: 4, hostfile: hf}
command: "{launch} true"
)yaml");
  auto r = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("c.yaml:3"));
  EXPECT_THAT(r.err, ::testing::HasSubstr("launcher.ranks: 'zero' is not a whole number"));
  EXPECT_THAT(r.err, ::testing::HasSubstr("at the point np=zero"));
  write_file(d / "c.yaml",
             "case: bad\nparams: {np: [2]}\nlauncher: {kind: mpich, ranks: "
             "\"{nps}\", hostfile: hf}\ncommand: \"{launch} true\"\n");
  r = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("placeholder '{nps}' names no parameter"));
}

}  // namespace
}  // namespace aerun::testing
