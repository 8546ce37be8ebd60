// A system profile's `environment.modules` loaded by a real Lmod (Debian's lmod package; issue 41),
// in the non-login shell a run starts in, where `module` is not defined until aerun makes it so:
// here, and in a job of the real test Slurm. A module line that fails ends the run before its
// command, naming the line and the profile.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "slurm_cluster.hpp"

using namespace aerun::testing;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// No module system in the environment aerun starts with: as in a job or a cron line.
const std::string kNoModules =
    "-u MODULESHOME -u MODULEPATH -u LMOD_CMD -u LMOD_PKG -u BASH_ENV -u LOADEDMODULES "
    "-u _LMFILES_ -u 'BASH_FUNC_module%%' -u 'BASH_FUNC_ml%%'";

const char* kCase = R"yaml(case: modules
params: {x: [1]}
command: echo "demo=${AERUN_DEMO_MODULE:-none} loaded=${LOADEDMODULES:-none}"; aerun-demo-tool
)yaml";

std::string modules_dir() {
  return std::string(AERUN_FIXTURES) + "/modules";
}

void write_profile(const TempDir& d, const std::string& name, const std::string& module,
                   const std::string& scheduler = "local") {
  write_file(d / ("mine/" + name + ".yaml"), "name: " + name + "\nscheduler: " + scheduler +
                                                 "\nenvironment:\n  modules: [\"use " +
                                                 modules_dir() + "\", \"load " + module + "\"]\n");
}

bool have_lmod() {
  return std::system("test -r /usr/share/lmod/lmod/init/bash") == 0;
}

std::string first_log(const TempDir& d) {
  return read_file(sql1(d / "results/aerun.db", "SELECT log_path FROM runs"));
}

// `aerun case` of kCase on a local system `lab` whose profile loads `module`, with no module
// system in aerun's environment (and `env`'s further settings).
Result run_on_lab(const TempDir& d, const std::string& module, const std::string& env = "") {
  write_file(d / "c.yaml", kCase);
  write_profile(d, "lab", module);
  return run_aerun(d, {"case", "c.yaml", "--system", "lab", "--systems", d / "mine"},
                   kNoModules + " " + env);
}

}  // namespace

TEST(SystemModules, AProfilesModulesAreLoadedByLmodInAShellThatHasNoModuleCommand) {
  if (!have_lmod()) GTEST_SKIP() << "no Lmod (scripts/install-deps.sh --test installs lmod)";
  TempDir d;
  const auto r = run_on_lab(d, "aerun-demo/1.0");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(first_log(d),
              AllOf(HasSubstr("demo=1.0 loaded=aerun-demo/1.0"), HasSubstr("aerun-demo-tool ran")));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT status || ' ' || system FROM runs"), "ok lab");
}

TEST(SystemModules, AModuleThatDoesNotLoadEndsTheRunBeforeItsCommandNamingTheLineAndProfile) {
  if (!have_lmod()) GTEST_SKIP() << "no Lmod (scripts/install-deps.sh --test installs lmod)";
  TempDir d;
  const auto r = run_on_lab(d, "aerun-demo/9.9");
  EXPECT_EQ(r.code, 1) << r.err;
  const std::string log = first_log(d);
  // Lmod's own words, then aerun's line; the command never ran.
  EXPECT_THAT(log, AllOf(HasSubstr("aerun-demo/9.9"),
                         HasSubstr("aerun: system lab (" + (d / "mine/lab.yaml") +
                                   "): `module load aerun-demo/9.9` failed"),
                         Not(HasSubstr("demo="))));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT status || ' ' || exit_code FROM runs"),
            "failed 95");
}

TEST(SystemModules, AModuleSystemIsFoundInItsUsualPlaceWhenModuleshomeIsWrong) {
  if (!have_lmod()) GTEST_SKIP() << "no Lmod (scripts/install-deps.sh --test installs lmod)";
  TempDir d;
  const auto r = run_on_lab(d, "aerun-demo/1.0", "MODULESHOME=" + (d / "nowhere"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(first_log(d), HasSubstr("demo=1.0 loaded=aerun-demo/1.0"));
}

TEST(SystemModules, WhenNoModuleCommandCanBeMadeTheRunSaysSoInsteadOfRunningWithoutItsModules) {
  TempDir d;
  // MODULESHOME names a module system whose init file defines nothing (a broken install): it is
  // the first place looked at, and after it `module` is still not a command.
  write_file(d / "broken/init/bash", ": an init file that defines no module command\n");
  const auto r = run_on_lab(d, "aerun-demo/1.0", "MODULESHOME=" + (d / "broken"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(first_log(d), AllOf(HasSubstr("aerun: system lab (" + (d / "mine/lab.yaml") +
                                            "): no `module` command here"),
                                  Not(HasSubstr("demo="))));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT exit_code FROM runs"), "95");
}

class SystemModulesOnSlurm : public SlurmTest {};

TEST_F(SystemModulesOnSlurm, AJobOnTheRealSlurmLoadsTheProfilesModulesBeforeItsCommand) {
  if (!have_lmod()) GTEST_SKIP() << "no Lmod (scripts/install-deps.sh --test installs lmod)";
  write_file(dir_ / "c.yaml", std::string(kCase) +
                                  "resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, "
                                  "partition: debug}\n");
  write_profile(dir_, "lab", "aerun-demo/1.0", "slurm");
  // env's options before its assignments: the module variables dropped, then the cluster's.
  const auto r = run_aerun(dir_, {"case", "c.yaml", "--system", "lab", "--systems", dir_ / "mine"},
                           kNoModules + " " + SlurmCluster::env());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(read_file(sql1(db(), "SELECT log_path FROM runs")),
              AllOf(HasSubstr("demo=1.0 loaded=aerun-demo/1.0"), HasSubstr("aerun-demo-tool ran")));
  EXPECT_EQ(sql1(db(), "SELECT status || ' ' || scheduler || ' ' || system FROM runs"),
            "ok slurm lab");
}
