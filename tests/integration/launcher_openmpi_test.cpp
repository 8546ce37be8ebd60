// Open MPI's mpirun launches real ranks through `aerun env --format sh`'s `launch` function.
// Open MPI cannot make one machine look like two nodes, so its ranks share one host entry.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "launcher_mpi_helpers.hpp"

namespace aerun::testing {
namespace {

TEST(LauncherOpenMpi, FourRanksOnALocalHostEntryEachRunExactlyOnce) {
  if (!have("mpirun.openmpi")) GTEST_SKIP() << "mpirun.openmpi missing (Debian: openmpi-bin)";
  TempDir dir;
  write_file(dir / "hf", "localhost slots=4\n");
  write_print_rank(dir);
  const Result r = run_bash(dir,
                            "set -e\n"
                            "eval \"$(\"$AERUN\" env --hostfile hf --launcher openmpi --program "
                            "mpirun.openmpi --ranks 4 --ranks-per-node 4 --env WORLD_SIZE "
                            "--env MASTER_ADDR --env AERUN_RANK_VAR --env AERUN_SIZE_VAR "
                            "--env AERUN_LOCAL_RANK_VAR --format sh)\"\n"
                            "echo \"$DIST_LAUNCH\" >&2\n"
                            "launch ./print_rank.sh\n",
                            "OMPI_MCA_plm=isolated OMPI_MCA_btl=self,tcp");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  if (::geteuid() == 0) {
    EXPECT_THAT(r.err, ::testing::HasSubstr("--allow-run-as-root"));
  }
  const auto seen = ranks_seen(r.out);
  ASSERT_EQ(seen.size(), 4u) << r.out << r.err;
  for (int rank = 0; rank < 4; ++rank) {
    ASSERT_TRUE(seen.count(rank)) << "rank " << rank << " did not run:\n" << r.out;
    EXPECT_EQ(seen.at(rank).first, 1) << "rank " << rank << " ran more than once";
    EXPECT_EQ(seen.at(rank).second.size, 4);
    EXPECT_EQ(seen.at(rank).second.world, 4);
    EXPECT_EQ(seen.at(rank).second.local, rank) << "one host: local rank = rank";
  }
}

}  // namespace
}  // namespace aerun::testing
