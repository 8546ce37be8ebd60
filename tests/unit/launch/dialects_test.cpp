// Every dialect's argv on the seeds' machines: how it spells ranks, ranks per node, hosts,
// binding and environment forwarding.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/launch/launcher.hpp"
#include "machines.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Argv = std::vector<std::string>;

LauncherSpec spec(const std::string& kind) {
  LauncherSpec s;
  s.kind = kind;
  return s;
}

std::string error_of(const LauncherSpec& s, const ClusterInfo& c) {
  try {
    launch_argv(s, c);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for " << s.kind;
  return "";
}

TEST(Registry, HoldsExactlyTheKindsCaseFilesAccept) {
  std::vector<std::string> names;
  for (const auto& d : launch_dialects()) names.push_back(d.name);
  EXPECT_EQ(names, launcher_kinds());
  EXPECT_THROW(find_dialect("mpiexec"), InputError);
}

TEST(Mpich, HydraOnPolarisWithEnvForwarding) {
  LauncherSpec s = spec("mpich");
  s.env = {"all"};
  s.cpu_bind = "core";
  EXPECT_THAT(launch_argv(s, testing::polaris()),
              ElementsAre("mpiexec", "-n", "8", "-ppn", "4", "--hostfile",
                          testing::polaris().hostfile, "-bind-to", "core", "-envall"));
  s.env = {"NCCL_DEBUG", "OMP_NUM_THREADS"};
  s.cpu_bind = "";
  EXPECT_THAT(launch_argv(s, testing::polaris()),
              ElementsAre("mpiexec", "-n", "8", "-ppn", "4", "--hostfile",
                          testing::polaris().hostfile, "-genvlist", "NCCL_DEBUG,OMP_NUM_THREADS"));
}

TEST(Mpich, InsideSlurmWithoutAHostfileItFindsTheHostsItself) {
  EXPECT_THAT(launch_argv(spec("mpich"), testing::perlmutter()),
              ElementsAre("mpiexec", "-n", "8", "-ppn", "4"));
}

TEST(Mpich, DepthBindingIsPalsOnly) {
  LauncherSpec s = spec("mpich");
  s.cpu_bind = "depth";
  EXPECT_THAT(error_of(s, testing::polaris()), HasSubstr("mpich cannot bind CPUs by 'depth'"));
}

TEST(OpenMpi, PpmMappingAndNamedVariablesAsRoot) {
  LauncherSpec s = spec("openmpi");
  s.env = {"NCCL_DEBUG"};
  ClusterInfo c = testing::polaris();
  c.as_root = true;
  EXPECT_THAT(launch_argv(s, c),
              ElementsAre("mpirun", "--allow-run-as-root", "-np", "8", "--hostfile", c.hostfile,
                          "--map-by", "ppr:4:node", "-x", "NCCL_DEBUG"));
  s.env = {"all"};
  EXPECT_THAT(error_of(s, c), HasSubstr("name them"));
}

TEST(OpenMpi, AnMpichHostfileIsSpelledAsAHostList) {
  ClusterInfo c = testing::polaris();
  c.hostfile_format = HostfileFormat::Mpich;  // a:4 / b:4
  c.hosts = {"a", "b"};
  c.slots = {4, 4};
  EXPECT_THAT(launch_argv(spec("openmpi"), c),
              ElementsAre("mpirun", "-np", "8", "--host", "a:4,b:4", "--map-by", "ppr:4:node"));
}

TEST(IntelMpi, HostfileIsDashF) {
  LauncherSpec s = spec("intelmpi");
  s.cpu_bind = "depth";
  EXPECT_THAT(launch_argv(s, testing::aurora()),
              ElementsAre("mpiexec", "-n", "48", "-ppn", "12", "-f", testing::aurora().hostfile,
                          "-genv", "I_MPI_PIN_DOMAIN", "8"));
}

TEST(Pals, ExplicitListsAndGpuBindingPassThrough) {
  LauncherSpec s = spec("pals");
  s.cpu_bind = "list:0-15:16-31:32-47:48-63";
  s.gpu_bind = "list:0:1:2:3";
  s.env = {"NCCL_DEBUG"};
  EXPECT_THAT(launch_argv(s, testing::polaris()),
              ElementsAre("mpiexec", "--envlist", "NCCL_DEBUG", "-n", "8", "-ppn", "4",
                          "--hostfile", testing::polaris().hostfile, "--cpu-bind",
                          "list:0-15:16-31:32-47:48-63", "--gpu-bind", "list:0:1:2:3"));
}

TEST(Srun, OpenMpiAndMpichFlavoursPickTheirPmi) {
  LauncherSpec s = spec("srun");
  s.mpi = "mpich";
  EXPECT_THAT(launch_argv(s, testing::perlmutter()).back(), "--mpi=pmi2");
  s.mpi = "openmpi";
  EXPECT_THAT(launch_argv(s, testing::perlmutter()).back(), "--mpi=pmix");
}

TEST(Torchrun, OneAgentPerNodeMeetingAtTheFirstHost) {
  EXPECT_THAT(launch_argv(spec("torchrun"), testing::perlmutter()),
              ElementsAre("torchrun", "--nnodes", "2", "--nproc-per-node", "4", "--rdzv-backend",
                          "c10d", "--rdzv-endpoint", "nid001140:29500"));
}

TEST(DeepSpeed, NeedsItsOwnHostfileFormatForSeveralNodes) {
  EXPECT_THAT(error_of(spec("deepspeed"), testing::polaris()),
              HasSubstr("without a hostfile of 'host slots=N' lines"));
  ClusterInfo c = testing::polaris();
  c.hostfile = "/tmp/ds_hostfile";
  c.hostfile_format = HostfileFormat::OpenMpi;  // `host slots=4` lines
  c.slots = {4, 4};
  EXPECT_THAT(
      launch_argv(spec("deepspeed"), c),
      ElementsAre("deepspeed", "--hostfile", "/tmp/ds_hostfile", "--num_nodes", "2", "--num_gpus",
                  "4", "--master_addr", c.hosts[0], "--master_port", "29500"));
}

TEST(None, IsASingleProcessWithNoPrefix) {
  EXPECT_TRUE(launch_argv(spec("none"), testing::polaris()).empty());
  EXPECT_EQ(render_launch(spec("none"), testing::polaris()), "");
}

TEST(RenderLaunch, QuotesWhatTheShellWouldSplit) {
  ClusterInfo c = testing::polaris();
  c.hostfile = "/tmp/my hosts";
  EXPECT_EQ(render_launch(spec("mpich"), c), "mpiexec -n 8 -ppn 4 --hostfile '/tmp/my hosts'");
}

TEST(AuroraList, SplitsEachSocketAroundItsOsCore) {
  EXPECT_EQ(aurora_cpu_bind_list(2), "list:1-51:53-103");
  EXPECT_EQ(aurora_cpu_bind_list(12),
            "list:1-8:9-16:17-24:25-32:33-40:41-48:53-60:61-68:69-76:77-84:85-92:93-100");
  EXPECT_THROW(aurora_cpu_bind_list(3), InputError);
}

}  // namespace
}  // namespace aerun
