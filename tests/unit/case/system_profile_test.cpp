// System profiles (issue 41): what a profile holds, every bad one refused naming file, line and
// key, which profile is the machine aerun runs on, and the shipped profiles themselves.
#include "aerun/case/system_profile.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "aerun/case/system_catalog.hpp"
#include "case/slurm_cluster_name.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string error_of(const std::string& yaml) {
  try {
    parse_system_profile(yaml, "sys.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << yaml;
  return "";
}

TEST(SystemProfile, TheSmallestProfileIsANameAndRunsLocally) {
  const SystemProfile p = parse_system_profile("name: laptop\n", "sys.yaml");
  EXPECT_EQ(p.name, "laptop");
  EXPECT_EQ(p.scheduler, "local");
  EXPECT_TRUE(p.queues.empty());
  EXPECT_TRUE(p.recognise.empty());
}

TEST(SystemProfile, EveryPartOfAMachineIsRead) {
  const SystemProfile p = parse_system_profile(R"(name: polaris
title: ALCF Polaris
sources: [https://docs.alcf.anl.gov/polaris/]
recognise:
  hostnames: ["polaris-login-*", "x3*"]
  variables: {PBS_O_HOST: "polaris-*"}
scheduler: pbs
launcher: pals
container: apptainer
queue: debug
filesystems: home:eagle
scratch: /local/scratch
queues:
  - {name: debug, nodes: {min: 1, max: 2}, walltime: 1h, gpus_per_node: 4, gpu: NVIDIA A100,
     cpus_per_node: 32, memory_gb: 512}
  - {name: prod, nodes: 496, walltime: 24h}
environment:
  modules: [use /soft/modulefiles, load conda]
  setup: [conda activate]
  variables: {NCCL_NET_GDR_LEVEL: PHB}
)",
                                               "sys.yaml");
  EXPECT_EQ(p.title, "ALCF Polaris");
  EXPECT_EQ(p.recognise.hostnames, (std::vector<std::string>{"polaris-login-*", "x3*"}));
  ASSERT_EQ(p.recognise.variables.size(), 1u);
  EXPECT_EQ(p.recognise.variables[0].second, "polaris-*");
  EXPECT_EQ(p.scheduler, "pbs");
  EXPECT_EQ(p.launcher, "pals");
  EXPECT_EQ(p.container, "apptainer");
  EXPECT_EQ(p.filesystems, "home:eagle");
  ASSERT_EQ(p.queues.size(), 2u);
  const SystemQueue* debug = p.find_queue("debug");
  ASSERT_NE(debug, nullptr);
  EXPECT_EQ(debug->min_nodes, 1);
  EXPECT_EQ(debug->max_nodes, 2);
  EXPECT_EQ(debug->walltime_s, 3600);
  EXPECT_EQ(debug->gpus_per_node, 4);
  EXPECT_EQ(debug->memory_gb, 512);
  EXPECT_EQ(p.find_queue("prod")->max_nodes, 496);  // `nodes: N` is the most a job may ask
  EXPECT_EQ(p.find_queue("prod")->walltime_s, 24 * 3600);
  EXPECT_EQ(p.modules, (std::vector<std::string>{"use /soft/modulefiles", "load conda"}));
  EXPECT_EQ(p.setup, std::vector<std::string>{"conda activate"});
  ASSERT_EQ(p.variables.size(), 1u);
  EXPECT_EQ(p.variables[0].first, "NCCL_NET_GDR_LEVEL");
}

TEST(SystemProfile, EveryBadProfileNamesFileLineAndKey) {
  EXPECT_THAT(error_of("title: x\n"), AllOf(StartsWith("sys.yaml:1:1:"), HasSubstr("'name'")));
  EXPECT_THAT(error_of("name: Polaris!\n"),
              AllOf(StartsWith("sys.yaml:1:"), HasSubstr("name"), HasSubstr("not a system name")));
  EXPECT_THAT(error_of("name: p\nschedular: pbs\n"),
              AllOf(StartsWith("sys.yaml:2:"), HasSubstr("did you mean 'scheduler'")));
  EXPECT_THAT(error_of("name: p\nscheduler: sge\n"),
              AllOf(StartsWith("sys.yaml:2:"), HasSubstr("scheduler"), HasSubstr("unknown")));
  EXPECT_THAT(error_of("name: p\nlauncher: mpirun\n"),
              AllOf(StartsWith("sys.yaml:2:"), HasSubstr("launcher"), HasSubstr("unknown")));
  EXPECT_THAT(error_of("name: p\ncontainer: docker\n"),
              AllOf(StartsWith("sys.yaml:2:"), HasSubstr("container")));
  EXPECT_THAT(error_of("name: p\nqueue: dbug\nqueues:\n  - {name: debug}\n"),
              AllOf(StartsWith("sys.yaml:2:"), HasSubstr("queue"), HasSubstr("not one of queues"),
                    HasSubstr("did you mean 'debug'")));
  EXPECT_THAT(error_of("name: p\nqueues:\n  - {name: a}\n  - {name: a}\n"),
              AllOf(StartsWith("sys.yaml:4:"), HasSubstr("queues[1]"), HasSubstr("twice")));
  EXPECT_THAT(error_of("name: p\nqueues:\n  - {walltime: 1h}\n"),
              AllOf(StartsWith("sys.yaml:3:"), HasSubstr("'name'")));
  EXPECT_THAT(error_of("name: p\nqueues:\n  - name: a\n    nodes: {min: 4, max: 2}\n"),
              AllOf(StartsWith("sys.yaml:4:"), HasSubstr("queues[0].nodes"), HasSubstr("min")));
  EXPECT_THAT(error_of("name: p\nqueues:\n  - name: a\n    walltime: soon\n"),
              AllOf(StartsWith("sys.yaml:4:"), HasSubstr("queues[0].walltime")));
  EXPECT_THAT(error_of("name: p\nqueues:\n  - name: a\n    gpus_per_node: -1\n"),
              AllOf(StartsWith("sys.yaml:4:"), HasSubstr("gpus_per_node")));
  EXPECT_THAT(error_of("name: p\nrecognise: {hosts: [x*]}\n"),
              AllOf(StartsWith("sys.yaml:2:"), HasSubstr("unknown key 'hosts'")));
  EXPECT_THAT(error_of("name: p\nenvironment:\n  variables: {\"A B\": 1}\n"),
              AllOf(StartsWith("sys.yaml:3:"), HasSubstr("not a variable name")));
  EXPECT_THAT(error_of("name: p\nname: q\n"), StartsWith("sys.yaml:2:"));
}

// A machine as recognition sees it.
MachineFacts machine(const std::string& host, std::map<std::string, std::string> vars = {},
                     const std::string& cluster = "") {
  MachineFacts f;
  f.hostname = host;
  f.variable = [vars](const std::string& n) -> std::optional<std::string> {
    const auto it = vars.find(n);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
  f.slurm_cluster = cluster;
  return f;
}

SystemCatalog catalog(const std::vector<std::string>& yamls) {
  SystemCatalog c;
  for (const auto& y : yamls) c.profiles.push_back(parse_system_profile(y, "sys.yaml"));
  c.profiles.push_back(parse_system_profile("name: local\n", "built in"));
  return c;
}

TEST(SystemRecognition, AHostNameAVariableOrASlurmClusterNamesTheMachine) {
  const SystemCatalog c =
      catalog({"name: polaris\nrecognise: {hostnames: [polaris-login-*, x3*]}\n",
               "name: perlmutter\nrecognise: {variables: {NERSC_HOST: perlmutter}}\n",
               "name: jz\nrecognise: {slurm_cluster: jeanzay}\n"});
  SystemMatch m = recognise_system(c, machine("x3004c0s7b0n0.hsn.cm.polaris.alcf.anl.gov"));
  EXPECT_EQ(m.profile->name, "polaris");
  EXPECT_EQ(m.why, "host name 'x3004c0s7b0n0' matches 'x3*'");  // the short name is matched
  m = recognise_system(c, machine("login31", {{"NERSC_HOST", "perlmutter"}}));
  EXPECT_EQ(m.profile->name, "perlmutter");
  EXPECT_THAT(m.why, HasSubstr("NERSC_HOST='perlmutter'"));
  m = recognise_system(c, machine("r6i2n3", {}, "jeanzay"));
  EXPECT_EQ(m.profile->name, "jz");
  EXPECT_EQ(m.why, "Slurm cluster 'jeanzay'");
}

TEST(SystemRecognition, ALoginNodesSlurmClusterIsTheClusterNameOfItsSlurmConf) {
  // slurm.conf(5): keys are case-insensitive, `#` starts a comment; Slurm folds the name to lower
  // case. The test cluster's own file (scripts/slurm-test-cluster.sh) says `ClusterName=aeruntest`.
  EXPECT_EQ(slurm_cluster_in_conf("ClusterName=aeruntest\nSlurmctldPort=6817\n"), "aeruntest");
  EXPECT_EQ(slurm_cluster_in_conf("# ClusterName=old\n  clustername = JeanZay  # IDRIS\n"),
            "jeanzay");
  EXPECT_EQ(slurm_cluster_in_conf("ControlMachine=localhost\n#ClusterName=cluster\n"), "");
  EXPECT_EQ(slurm_cluster_in_conf("ClusterNameX=a\nMyClusterName=b\n"), "");
  const SystemCatalog c = catalog({"name: jz\nrecognise: {slurm_cluster: jeanzay}\n"});
  MachineFacts f = machine("jean-zay1");
  f.slurm_cluster = "jeanzay";
  f.slurm_cluster_from = "/etc/slurm/slurm.conf";
  EXPECT_EQ(recognise_system(c, f).why, "Slurm cluster 'jeanzay' (/etc/slurm/slurm.conf)");
}

TEST(SystemRecognition, NoMatchIsLocalAndSaysSoAndTheFirstOfTwoMatchesWins) {
  const SystemCatalog c = catalog({"name: a\nrecognise: {hostnames: [node*]}\n",
                                   "name: b\nrecognise: {hostnames: [node1*]}\n"});
  SystemMatch m = recognise_system(c, machine("laptop"));
  EXPECT_EQ(m.profile->name, "local");
  EXPECT_THAT(m.why, HasSubstr("no profile recognises this machine"));
  m = recognise_system(c, machine("node12"));
  EXPECT_EQ(m.profile->name, "a");
  EXPECT_EQ(m.also, std::vector<std::string>{"b"});
}

class SystemFolders : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("aerun-systems-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "mine");
    fs::create_directories(dir_ / "shipped");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
  fs::path dir_;
};

TEST_F(SystemFolders, AUsersFolderComesFirstAndHidesAShippedProfileOfTheSameName) {
  write(dir_ / "mine/polaris.yaml", "name: polaris\nscheduler: local\n");
  write(dir_ / "shipped/polaris.yaml", "name: polaris\nscheduler: pbs\n");
  write(dir_ / "shipped/aurora.yaml", "name: aurora\nscheduler: pbs\n");
  write(dir_ / "shipped/README.md", "not a profile\n");
  const SystemCatalog c = load_system_catalog(
      {(dir_ / "mine").string(), (dir_ / "absent").string(), (dir_ / "shipped").string()});
  ASSERT_EQ(c.profiles.size(), 3u);  // polaris (mine), aurora, the built-in local
  EXPECT_EQ(c.find("polaris")->scheduler, "local");
  EXPECT_EQ(c.find("aurora")->scheduler, "pbs");
  EXPECT_EQ(c.find("local")->file, "built in");
  ASSERT_EQ(c.hidden.size(), 1u);
  EXPECT_THAT(c.hidden[0], HasSubstr("shipped/polaris.yaml"));
}

TEST_F(SystemFolders, ANameTwiceInOneFolderIsAnErrorNamingBothFiles) {
  write(dir_ / "mine/a.yaml", "name: x\n");
  write(dir_ / "mine/b.yaml", "name: x\n");
  try {
    load_system_catalog({(dir_ / "mine").string()});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("b.yaml"), HasSubstr("a.yaml"), HasSubstr("'x'")));
  }
}

TEST_F(SystemFolders, AFifoOrAFolderIsNeverReadAsAProfile) {
  fs::create_directories(dir_ / "mine/dir.yaml");
  write(dir_ / "mine/ok.yaml", "name: ok\n");
  EXPECT_NO_THROW(
      load_system_catalog({(dir_ / "mine").string()}));  // a folder named *.yaml: skipped
  EXPECT_THROW(load_system_profile((dir_ / "mine/dir.yaml").string()), InputError);
  EXPECT_THROW(load_system_profile("/dev/zero"), InputError);
}

TEST(ShippedSystems, EachLoadsCitesItsSourcesAndIsRecognisedAsItsCentreDocuments) {
  const SystemCatalog c = load_system_catalog({AERUN_SOURCE_DIR "/systems"});
  for (const char* name : {"aurora", "polaris", "perlmutter", "jean-zay"}) {
    const SystemProfile* p = c.find(name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_FALSE(p->sources.empty()) << name;
    EXPECT_FALSE(p->queues.empty()) << name;
  }
  EXPECT_EQ(c.find("aurora")->scheduler, "pbs");
  EXPECT_EQ(c.find("polaris")->launcher, "pals");
  EXPECT_EQ(c.find("perlmutter")->scheduler, "slurm");
  EXPECT_EQ(c.find("perlmutter")->find_queue("regular")->constraint, "gpu");
  // Host names from the ALCF guides (running-jobs pages) and NERSC_HOST from /etc/clustername.
  EXPECT_EQ(recognise_system(c, machine("x4407c6s2b0n0")).profile->name, "aurora");
  EXPECT_EQ(recognise_system(c, machine("aurora-uan-0009")).profile->name, "aurora");
  EXPECT_EQ(recognise_system(c, machine("polaris-login-02")).profile->name, "polaris");
  EXPECT_EQ(recognise_system(c, machine("x3004c0s7b0n0")).profile->name, "polaris");
  EXPECT_EQ(recognise_system(c, machine("login31", {{"NERSC_HOST", "perlmutter"}})).profile->name,
            "perlmutter");
  EXPECT_EQ(recognise_system(c, machine("login31")).profile->name, "local");
}

}  // namespace
}  // namespace aerun

namespace aerun {
namespace {

TEST(SystemProfile, AValueThatGoesIntoADirectiveIsOneWordAsInACase) {
  // The third pass: a newline in a profile's account added `#PBS` directives and shell lines to
  // every job script, while the same value in a case's resources: was refused.
  EXPECT_THAT(error_of("name: p\naccount: \"acct\\n#PBS -l select=999\"\n"),
              AllOf(StartsWith("sys.yaml:2:"), HasSubstr("account")));
  EXPECT_THAT(error_of("name: p\nqueues:\n  - {name: a, qos: \"q\\ntouch x\"}\n"),
              AllOf(StartsWith("sys.yaml:3:"), HasSubstr("qos")));
  EXPECT_THAT(error_of("name: p\nfilesystems: \"home eagle\"\n"), HasSubstr("filesystems"));
  EXPECT_THAT(error_of("name: p\nenvironment: {modules: [\"load a\\nrm -rf x\"]}\n"),
              HasSubstr("one line"));
  EXPECT_NO_THROW(
      parse_system_profile("name: p\nqueues: [{name: r, constraint: 'gpu&hbm80g'}]\n", "sys.yaml"));
}

}  // namespace
}  // namespace aerun
