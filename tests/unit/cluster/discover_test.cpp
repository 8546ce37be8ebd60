// Discovery: the scheduler, its hosts and slots, GPUs and CPUs; explicit choices win.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/cluster/cluster.hpp"
#include "aerun/util/error.hpp"
#include "fake_machine.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using testing::FakeMachine;
using testing::fixture;
using ::testing::HasSubstr;

const std::string kDir = std::string(AERUN_FIXTURES) + "/cluster/";

DiscoveryOptions on(const FakeMachine& m) {
  DiscoveryOptions o;
  o.env = m.env_lookup();
  o.tools = m.tool_runner();
  o.threads_per_core = 1;
  return o;
}

FakeMachine polaris() {
  FakeMachine m;
  m.env["PBS_JOBID"] = "3061463.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov";
  m.env["PBS_NODEFILE"] = kDir + "polaris_nodefile";
  m.tools["nvidia-smi -L"] = fixture("nvidia-smi-L.txt");
  return m;
}

FakeMachine perlmutter() {
  FakeMachine m;
  m.env["SLURM_JOB_ID"] = "1234567";
  m.env["SLURM_JOB_NODELIST"] = "nid[001140-001141]";
  m.env["SLURM_JOB_NUM_NODES"] = "2";
  m.env["SLURM_TASKS_PER_NODE"] = "4(x2)";
  m.env["SLURM_JOB_CPUS_PER_NODE"] = "128(x2)";
  m.env["SLURM_GPUS_ON_NODE"] = "4";
  m.env["SLURM_CPUS_ON_NODE"] = "128";
  return m;
}

TEST(Discover, APbsJobReadsItsNodefileAndNvidiaSmi) {
  const ClusterInfo c = discover(on(polaris()));
  EXPECT_EQ(c.scheduler, Scheduler::Pbs);
  EXPECT_EQ(c.job_id, "3061463.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov");
  EXPECT_EQ(c.hostfile, kDir + "polaris_nodefile");
  EXPECT_THAT(c.hosts, ElementsAre("x3205c0s25b0n0.hsn.cm.polaris.alcf.anl.gov",
                                   "x3205c0s25b1n0.hsn.cm.polaris.alcf.anl.gov"));
  EXPECT_EQ(c.gpus_per_host, 4);
  EXPECT_EQ(c.gpu_source, "nvidia-smi");
  EXPECT_EQ(c.ngpus(), 8);
}

// LSF: LSB_JOBID names the job, LSB_DJOB_HOSTFILE its hosts, one line per slot (IBM LSF 10.1,
// "Environment variables set for job execution") — the layout of a PBS nodefile, whose fixture
// stands for it here.
TEST(Discover, AnLsfJobReadsTheHostFileLsfWritesForIt) {
  FakeMachine m;
  m.env["LSB_JOBID"] = "2329803";
  m.env["LSB_DJOB_HOSTFILE"] = kDir + "pbs_nodefile_repeated";
  const ClusterInfo c = discover(on(m));
  EXPECT_EQ(c.scheduler, Scheduler::Lsf);
  EXPECT_EQ(c.job_id, "2329803");
  EXPECT_THAT(c.hosts, ElementsAre("nid001", "nid002.hsn"));
  EXPECT_THAT(c.slots, ElementsAre(4, 4));
}

TEST(Discover, ASlurmJobExpandsItsNodelistAndTasksPerNode) {
  const ClusterInfo c = discover(on(perlmutter()));
  EXPECT_EQ(c.scheduler, Scheduler::Slurm);
  EXPECT_EQ(c.job_id, "1234567");
  EXPECT_THAT(c.hosts, ElementsAre("nid001140", "nid001141"));
  EXPECT_EQ(c.hosts_source, "SLURM_JOB_NODELIST");
  EXPECT_THAT(c.slots, ElementsAre(128, 128));  // the CPUs it holds, not its task layout
  EXPECT_EQ(c.gpus_per_host, 4);
  EXPECT_EQ(c.gpu_source, "SLURM_GPUS_ON_NODE");
  EXPECT_EQ(c.cpus_per_host, 128);
  EXPECT_TRUE(c.hostfile.empty());
}

TEST(Discover, OldSlurmVariableNamesWorkToo) {
  FakeMachine m;
  m.env["SLURM_JOB_ID"] = "7";
  m.env["SLURM_NODELIST"] = "gpu[1-3]";
  m.env["SLURM_NNODES"] = "3";
  EXPECT_THAT(discover(on(m)).hosts, ElementsAre("gpu1", "gpu2", "gpu3"));
}

TEST(Discover, ASlurmNodeCountThatDisagreesWithTheListIsAnError) {
  FakeMachine m = perlmutter();
  m.env["SLURM_JOB_NUM_NODES"] = "3";
  try {
    discover(on(m));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("lists 2 hosts but the job has 3 nodes"));
  }
}

TEST(Discover, WithoutASchedulerItIsThisHostAlone) {
  const ClusterInfo c = discover(on(FakeMachine{}));
  EXPECT_EQ(c.scheduler, Scheduler::None);
  EXPECT_THAT(c.hosts, ElementsAre("localhost"));
  EXPECT_EQ(c.gpus_per_host, 0);
  EXPECT_EQ(c.gpu_source, "none");
  EXPECT_GE(c.cpus_per_host, 1);
}

TEST(Discover, AnExplicitSchedulerOverridesDetection) {
  DiscoveryOptions o = on(perlmutter());
  o.scheduler = Scheduler::None;
  const ClusterInfo c = discover(o);
  EXPECT_EQ(c.scheduler, Scheduler::None);
  EXPECT_THAT(c.hosts, ElementsAre("localhost"));
}

TEST(Discover, AnExplicitHostfileWinsOverTheScheduler) {
  DiscoveryOptions o = on(perlmutter());
  o.hostfile = kDir + "openmpi_hostfile";
  const ClusterInfo c = discover(o);
  EXPECT_EQ(c.scheduler, Scheduler::Slurm);
  EXPECT_THAT(c.hosts, ElementsAre("node01", "node02"));
  EXPECT_EQ(c.hostfile_format, HostfileFormat::OpenMpi);
}

TEST(Discover, PbsWithoutANodefileIsAClearError) {
  FakeMachine m;
  m.env["PBS_JOBID"] = "1.server";
  EXPECT_THROW(discover(on(m)), InputError);
}

TEST(Discover, ExplicitGpuAndCpuCountsWin) {
  DiscoveryOptions o = on(polaris());
  o.gpus_per_host = 2;
  o.cpus_per_host = 64;
  const ClusterInfo c = discover(o);
  EXPECT_EQ(c.gpus_per_host, 2);
  EXPECT_EQ(c.gpu_source, "explicit");
  EXPECT_EQ(c.cpus_per_host, 64);
}

TEST(Scheduler, NamesRoundTripAndUnknownOnesAreErrors) {
  for (Scheduler s : {Scheduler::None, Scheduler::Pbs, Scheduler::Slurm, Scheduler::Lsf})
    EXPECT_EQ(parse_scheduler(to_string(s)), s);
  EXPECT_THROW(parse_scheduler("sge"), InputError);  // no Grid Engine backend
}

TEST(Discover, TheJobsDefaultTaskLayoutIsNoCapForANewStep) {
  // Inside `salloc -N 2` without --ntasks-per-node Slurm sets SLURM_TASKS_PER_NODE=1(x2): a new
  // step may still start a rank per GPU (srun counts the CPUs the job holds).
  FakeMachine m = perlmutter();
  m.env["SLURM_TASKS_PER_NODE"] = "1(x2)";
  const ClusterInfo c = discover(on(m));
  EXPECT_THAT(c.slots, ElementsAre(128, 128));  // 4 ranks per node fit (PlanLaunch tests)
}

TEST(Discover, AMillionHostListIsExpandedOnceEachInLinearTime) {
  FakeMachine m;
  m.env["SLURM_JOB_ID"] = "9";
  m.env["SLURM_JOB_NODELIST"] = "n[0001-1000]g[0001-1000]";
  const ClusterInfo c = discover(on(m));  // quadratic de-duplication took over ten minutes
  EXPECT_EQ(c.hosts.size(), 1000000u);
  EXPECT_EQ(c.hosts.front(), "n0001g0001");
  m.env["SLURM_JOB_NODELIST"] = "a[1-3],a2,b,a1,b";
  EXPECT_THAT(discover(on(m)).hosts, ElementsAre("a1", "a2", "a3", "b"));
}

}  // namespace
}  // namespace aerun
