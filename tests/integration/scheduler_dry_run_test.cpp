// `aerun case FILE --scheduler slurm|pbs|local --dry-run`: writes the job scripts, prints where,
// submits nothing and stores nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(SchedulerDryRun, WritesSeed004StyleScriptsAndSubmitsNothing) {
  TempDir d;
  write_file(d / "c.yaml", R"(case: bloom
params: {size: [1b3, 13b]}
command: echo {size}
resources:
  nodes: 2
  tasks_per_node: 1
  cpus_per_task: 40
  gpus_per_node: 4
  walltime: 20h
  partition: gpu_p13
  account: six
  constraint: v100-32g
  hint: nomultithread
  exclusive: true
)");
  const auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", "slurm", "--dry-run"},
                           "PATH=/nonexistent:/usr/bin:/bin");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("2 runs in 1 slurm job script (nothing submitted)"));
  const std::string path =
      r.out.substr(r.out.find('\n') + 1, r.out.find(".sbatch") + 7 - r.out.find('\n') - 1);
  const std::string script = read_file(path);
  EXPECT_THAT(script, HasSubstr("#SBATCH --job-name=bloom-"));
  EXPECT_THAT(script, HasSubstr("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n"
                                "#SBATCH --cpus-per-task=40\n#SBATCH --gpus-per-node=4\n"
                                "#SBATCH --time=20:00:00\n#SBATCH --partition=gpu_p13\n"
                                "#SBATCH --account=six\n#SBATCH --constraint=v100-32g\n"
                                "#SBATCH --hint=nomultithread\n#SBATCH --exclusive\n"
                                "#SBATCH --array=0-1\n"));
  EXPECT_EQ(std::system(("bash -n " + aerun::shell_quote(path)).c_str()), 0);
  EXPECT_FALSE(fs::exists(d / "results/aerun.db"));
}

TEST(SchedulerDryRun, PbsRefusesSlurmOnlyResources) {
  TempDir d;
  write_file(d / "c.yaml", "case: x\ncommand: echo\nresources: {constraint: v100-32g}\n");
  const auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", "pbs", "--dry-run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("constraint is a Slurm option"));
}

TEST(SchedulerDryRun, AUsersOwnTemplateIsFilledAndUnknownPlaceholdersAreNamed) {
  TempDir d;
  write_file(d / "my.tmpl",
             "#!/bin/bash\n#SBATCH -J {{job_name}}\n# wall {{walltime}}\n{{runs}}\n"
             "cd {{workdir|q}} && {{run}}\n");
  write_file(d / "c.yaml",
             "case: own\ncommand: echo hi\nresources: {template: my.tmpl, walltime: 90m}\n");
  const auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", "slurm", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string path = r.out.substr(r.out.find('\n') + 1, r.out.size() - r.out.find('\n') - 2);
  EXPECT_THAT(read_file(path), HasSubstr("# wall 01:30:00\n"));
  write_file(d / "my.tmpl", "#!/bin/bash\n{{nodez}}\n");
  const auto bad = run_aerun(d, {"case", "c.yaml", "--scheduler", "slurm", "--dry-run"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("my.tmpl:2:1: template: unknown placeholder {{nodez}}"));
}

TEST(SchedulerDryRun, ATimeoutGivesTheJobAWalltimeAndAShorterWalltimeIsWarnedAbout) {
  TempDir d;
  // 50 minutes: + 10 % = 55 min (more than + 5 min).
  write_file(d / "t.yaml", "case: wt\nparams: {x: [1, 2]}\ncommand: echo {x}\ntimeout: 50m\n");
  auto r = run_aerun(d, {"case", "t.yaml", "--scheduler", "slurm", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string script;
  for (const auto& e : fs::recursive_directory_iterator(d / "results"))
    if (e.path().extension() == ".sbatch") script = read_file(e.path());
  EXPECT_THAT(script, HasSubstr("#SBATCH --time=00:55:00\n"));
  // 10 minutes: + 5 min (more than + 10 %), on PBS.
  write_file(d / "t.yaml", "case: wt2\ncommand: echo hi\ntimeout: 10m\n");
  r = run_aerun(d, {"case", "t.yaml", "--scheduler", "pbs", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& e : fs::recursive_directory_iterator(d / "results/logs/wt2"))
    if (e.path().extension() == ".pbs") script = read_file(e.path());
  EXPECT_THAT(script, HasSubstr("#PBS -l walltime=00:15:00\n"));
  // An explicit walltime shorter than the timeout: kept, and warned about with both places.
  write_file(d / "t.yaml",
             "case: wt3\ncommand: echo hi\ntimeout: 2h\nresources: {walltime: 30m}\n");
  r = run_aerun(d, {"case", "t.yaml", "--scheduler", "slurm", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err,
              HasSubstr("t.yaml:4: walltime (1800 s) is shorter than the timeout (7200 s, "));
  EXPECT_THAT(r.err, HasSubstr("t.yaml:3)"));
}

TEST(SchedulerDryRun, LauncherCountsPerPointGiveEachArrayItsOwnLaunchLine) {
  TempDir d;
  write_file(d / "s.yaml", R"yaml(case: scale
params: {np: [4, 8], seed: [1, 2]}
launcher: {kind: srun, ranks: "{np}", ranks_per_node: 4}
command: "{launch} ./train --seed {seed}"
resources: {nodes: 2}
)yaml");
  const auto r = run_aerun(d, {"case", "s.yaml", "--scheduler", "slurm", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> scripts;
  for (const auto& e : fs::recursive_directory_iterator(d / "results"))
    if (e.path().extension() == ".sbatch") scripts.push_back(read_file(e.path()));
  ASSERT_EQ(scripts.size(), 2u);  // one array per ranks value, two seeds each
  std::string all = scripts[0] + scripts[1];
  EXPECT_THAT(all, HasSubstr("--ranks=4"));
  EXPECT_THAT(all, HasSubstr("--ranks=8"));
  for (const auto& s : scripts) EXPECT_THAT(s, HasSubstr("#SBATCH --array=0-1\n"));
}

// A dry run asks no scheduler for its array limit; AERUN_MAX_ARRAY_SIZE cuts its scripts as a
// submission would be cut, and a bad value is named.
TEST(SchedulerDryRun, AerunMaxArraySizeCutsTheScriptsAndABadValueIsNamed) {
  TempDir d;
  write_file(d / "c.yaml", R"(case: five
params: {n: [1, 2, 3, 4, 5]}
command: echo {n}
resources: {nodes: 1, walltime: 1h}
)");
  auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", "slurm", "--dry-run"},
                     "AERUN_MAX_ARRAY_SIZE=2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("5 runs in 3 slurm job scripts (nothing submitted)"));
  r = run_aerun(d, {"case", "c.yaml", "--scheduler", "slurm", "--dry-run"},
                "AERUN_MAX_ARRAY_SIZE=lots");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("AERUN_MAX_ARRAY_SIZE: 'lots' is no array size"));
}
