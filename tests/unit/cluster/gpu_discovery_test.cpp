// GPUs per host: the documented order of sources, each falling through when it has nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/cluster/gpu_discovery.hpp"
#include "fake_machine.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using testing::FakeMachine;
using testing::fixture;

GpuCount gpus(const FakeMachine& m, std::optional<int> explicit_count = std::nullopt) {
  return discover_gpus(explicit_count, m.env_lookup(), m.tool_runner());
}

TEST(GpuParsers, CountTheGpusOfEachVendorsListing) {
  EXPECT_EQ(count_nvidia_smi(fixture("nvidia-smi-L.txt")), 4);
  EXPECT_EQ(count_nvidia_smi(fixture("nvidia-smi-L-mig.txt")), 2);  // MIG lines are not GPUs
  EXPECT_EQ(count_rocm_smi(fixture("rocm-smi-showid.txt")), 8);
  EXPECT_EQ(count_amd_smi(fixture("amd-smi-list.txt")), 2);
  EXPECT_EQ(count_xpu_smi(fixture("xpu-smi-discovery.txt"), /*flat=*/true), 12);
  EXPECT_EQ(count_xpu_smi(fixture("xpu-smi-discovery.txt"), /*flat=*/false), 6);
  EXPECT_EQ(count_nvidia_smi("No devices were found\n"), 0);
}

TEST(GpuDiscovery, TheCasesExplicitValueWinsEvenWhenZero) {
  FakeMachine m;
  m.tools["nvidia-smi -L"] = fixture("nvidia-smi-L.txt");
  const GpuCount g = gpus(m, 0);
  EXPECT_EQ(g.per_host, 0);
  EXPECT_EQ(g.source, "explicit");
  EXPECT_TRUE(m.asked->empty()) << "no tool is run when the count is given";
}

TEST(GpuDiscovery, NvidiaSmiComesBeforeTheScheduler) {
  FakeMachine m;
  m.tools["nvidia-smi -L"] = fixture("nvidia-smi-L.txt");
  m.env["SLURM_GPUS_ON_NODE"] = "8";
  const GpuCount g = gpus(m);
  EXPECT_EQ(g.per_host, 4);
  EXPECT_EQ(g.source, "nvidia-smi");
}

TEST(GpuDiscovery, AMissingOrEmptyToolFallsThroughToTheNext) {
  FakeMachine m;
  m.tools["nvidia-smi -L"] = "No devices were found\n";
  m.tools["amd-smi list"] = fixture("amd-smi-list.txt");
  const GpuCount g = gpus(m);
  EXPECT_EQ(g.per_host, 2);
  EXPECT_EQ(g.source, "amd-smi");
  EXPECT_THAT(*m.asked, ElementsAre("nvidia-smi -L", "rocm-smi --showid", "amd-smi list"));
}

TEST(GpuDiscovery, IntelTilesCountAsDevicesUnlessComposite) {
  FakeMachine m;
  m.tools["xpu-smi discovery"] = fixture("xpu-smi-discovery.txt");
  EXPECT_EQ(gpus(m).per_host, 12);
  EXPECT_EQ(gpus(m).source, "xpu-smi");
  m.env["ZE_FLAT_DEVICE_HIERARCHY"] = "COMPOSITE";
  EXPECT_EQ(gpus(m).per_host, 6);
}

TEST(GpuDiscovery, AnAuroraJobHasTwelveTilesWithoutXpuSmi) {
  FakeMachine m;
  m.env["PBS_JOBID"] = "297306.aurora-pbs-0001.hostmgmt.cm.aurora.alcf.anl.gov";
  const GpuCount g = gpus(m);
  EXPECT_EQ(g.per_host, 12);
  EXPECT_EQ(g.source, "aurora");
}

TEST(GpuDiscovery, SchedulerVariablesThenVisibleDevices) {
  FakeMachine m;
  m.env["SLURM_GPUS_PER_NODE"] = "a100:4";
  m.env["CUDA_VISIBLE_DEVICES"] = "0,1";
  EXPECT_EQ(gpus(m).per_host, 4);
  EXPECT_EQ(gpus(m).source, "SLURM_GPUS_PER_NODE");
  m.env.erase("SLURM_GPUS_PER_NODE");
  EXPECT_EQ(gpus(m).per_host, 2);
  EXPECT_EQ(gpus(m).source, "CUDA_VISIBLE_DEVICES");
  m.env["CUDA_VISIBLE_DEVICES"] = "";  // set but empty: no GPU from it
  m.env["ZE_AFFINITY_MASK"] = "0.0,0.1,1.0";
  EXPECT_EQ(gpus(m).per_host, 3);
  EXPECT_EQ(gpus(m).source, "ZE_AFFINITY_MASK");
}

TEST(GpuDiscovery, NothingFoundIsZeroGpusSaidPlainly) {
  FakeMachine m;
  m.env["CUDA_VISIBLE_DEVICES"] = "-1";
  const GpuCount g = gpus(m);
  EXPECT_EQ(g.per_host, 0);
  EXPECT_EQ(g.source, "none");
}

}  // namespace
}  // namespace aerun
