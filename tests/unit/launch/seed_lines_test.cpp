// The launch lines shown in the seeds (ezpz's DIST_LAUNCH on Polaris and Aurora, srun on
// Perlmutter) are what aerun renders for the same machines.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/launch/launcher.hpp"
#include "machines.hpp"

namespace aerun {
namespace {

LauncherSpec spec(const std::string& kind) {
  LauncherSpec s;
  s.kind = kind;
  return s;
}

TEST(SeedLines, PolarisTwoNodesFourGpusIsEzpzsDistLaunch) {
  LauncherSpec s = spec("pals");
  s.extra_args = {"--verbose"};
  EXPECT_EQ(render_launch(s, testing::polaris()),
            "mpiexec --verbose --envall -n 8 -ppn 4 --hostfile "
            "/var/spool/pbs/aux/3061463.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov "
            "--cpu-bind depth -d 8");
}

TEST(SeedLines, AuroraFourNodesTwelveTilesIsEzpzsDistLaunch) {
  LauncherSpec s = spec("pals");
  s.extra_args = {"--verbose"};
  s.cpu_bind = "none";
  EXPECT_EQ(render_launch(s, testing::aurora()),
            "mpiexec --verbose --envall -n 48 -ppn 12 --hostfile "
            "/var/spool/pbs/aux/297306.aurora-pbs-0001.hostmgmt.cm.aurora.alcf.anl.gov");
}

TEST(SeedLines, AuroraExplicitCpuBindList) {
  LauncherSpec s = spec("pals");
  s.cpu_bind = "aurora";
  EXPECT_EQ(
      render_launch(s, testing::aurora()),
      "mpiexec --envall -n 48 -ppn 12 --hostfile "
      "/var/spool/pbs/aux/297306.aurora-pbs-0001.hostmgmt.cm.aurora.alcf.anl.gov "
      "--cpu-bind list:1-8:9-16:17-24:25-32:33-40:41-48:53-60:61-68:69-76:77-84:85-92:93-100");
}

TEST(SeedLines, PerlmutterSrunTwoNodesFourGpus) {
  EXPECT_EQ(render_launch(spec("srun"), testing::perlmutter()),
            "srun -N 2 -n 8 --ntasks-per-node 4 --gpus-per-node 4");
  LauncherSpec s = spec("srun");
  s.mpi = "cray";
  s.cpu_bind = "depth";
  // 64 cores x 2 hardware threads, 4 ranks: 16 cores each = 32 CPUs as srun counts them
  // (NERSC: "-c 32" for 4 tasks per Perlmutter GPU node).
  EXPECT_EQ(render_launch(s, testing::perlmutter()),
            "srun -N 2 -n 8 --ntasks-per-node 4 --gpus-per-node 4 --mpi=cray_shasta "
            "--cpus-per-task 32 --cpu-bind=cores");
  // Without SMT a CPU is a core.
  ClusterInfo one = testing::perlmutter();
  one.cpus_per_host = 64;
  one.threads_per_core = 1;
  EXPECT_EQ(render_launch(s, one),
            "srun -N 2 -n 8 --ntasks-per-node 4 --gpus-per-node 4 --mpi=cray_shasta "
            "--cpus-per-task 16 --cpu-bind=cores");
}

}  // namespace
}  // namespace aerun
