// MPICH's Hydra launches real ranks through `aerun env --format sh`'s `launch` function.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "launcher_mpi_helpers.hpp"

namespace aerun::testing {
namespace {

// Two host entries that Hydra starts locally (never over ssh), two slots each.
const char* kHostfile = "# two local entries\nlocalhost:2\n127.0.0.1:2\n";

TEST(LauncherMpich, FourRanksTwoPerHostEntryEachRunExactlyOnce) {
  if (!have("mpiexec.hydra")) GTEST_SKIP() << "mpiexec.hydra missing (Debian: mpich)";
  TempDir dir;
  write_file(dir / "hf", kHostfile);
  write_print_rank(dir);
  const Result r = run_bash(dir,
                            "set -e\n"
                            "eval \"$(\"$AERUN\" env --hostfile hf --launcher mpich --program "
                            "mpiexec.hydra --ranks 4 --ranks-per-node 2 --format sh)\"\n"
                            "launch ./print_rank.sh\n");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto seen = ranks_seen(r.out);
  ASSERT_EQ(seen.size(), 4u) << r.out;
  std::map<int, int> locals;
  for (int rank = 0; rank < 4; ++rank) {
    ASSERT_TRUE(seen.count(rank)) << "rank " << rank << " did not run:\n" << r.out;
    EXPECT_EQ(seen.at(rank).first, 1) << "rank " << rank << " ran more than once";
    EXPECT_EQ(seen.at(rank).second.size, 4);
    EXPECT_EQ(seen.at(rank).second.world, 4);
    EXPECT_EQ(seen.at(rank).second.master, "localhost");
    locals[seen.at(rank).second.local]++;
  }
  EXPECT_EQ(locals, (std::map<int, int>{{0, 2}, {1, 2}})) << "two ranks on each host entry";
}

TEST(LauncherMpich, TheBareLaunchLinePrefixesAProgram) {
  if (!have("mpiexec.hydra")) GTEST_SKIP() << "mpiexec.hydra missing (Debian: mpich)";
  TempDir dir;
  write_file(dir / "hf", kHostfile);
  write_print_rank(dir);
  const std::string script =
      "set -e\n"
      "args='--hostfile hf --launcher mpich --program mpiexec.hydra "
      "--ranks 2 --ranks-per-node 1'\n"
      "eval \"$(\"$AERUN\" env $args --format sh)\"\n"
      "$(\"$AERUN\" env $args --format launch) ./print_rank.sh\n";
  const Result r = run_bash(dir, script);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto seen = ranks_seen(r.out);
  ASSERT_EQ(seen.size(), 2u) << r.out;
  EXPECT_EQ(seen.at(0).second.size, 2);
  EXPECT_EQ(seen.at(1).second.size, 2);
  EXPECT_EQ(seen.at(0).second.local, 0);
  EXPECT_EQ(seen.at(1).second.local, 0) << "one rank per host entry";
}

TEST(LauncherMpich, TooManyRanksFailBeforeAnythingStarts) {
  TempDir dir;
  write_file(dir / "hf", kHostfile);
  const Result r = run_aerun(dir, {"env", "--hostfile", "hf", "--launcher", "mpich", "--ranks", "6",
                                   "--ranks-per-node", "2", "--format", "sh"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("6 ranks are more than the 4 slots"));
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace aerun::testing
