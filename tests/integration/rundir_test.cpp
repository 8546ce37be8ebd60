// `rundir:` — a directory of its own for every run: runs writing the same file never collide,
// inputs are copied or linked in, logs live there, and `keep` cleans up; local and batch alike.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(Rundir, RunsAtOnceWritingTheSameFileEachReadTheirOwn) {
  TempDir d;
  write_file(d / "config.json", "{\"lr\": 0.1}\n");
  write_file(d / "c.yaml", R"yaml(case: out
params: {n: [1, 2, 3, 4]}
rundir: {copy: [config.json]}
command: 'echo {n} > out.txt; sleep 0.3; echo "read $(cat out.txt) in $PWD"; cat config.json'
metrics: {read: 'read ([0-9]+)'}
)yaml");
  auto r = run_aerun(d, {"case", "c.yaml", "-j", "4"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "results/aerun.db";
  const auto rows =
      sql(db,
          "SELECT p.value, CAST(m.value AS INTEGER), r.rundir, r.log_path FROM runs r "
          "JOIN run_params "
          "p ON p.run_id=r.id JOIN metrics m ON m.run_id=r.id ORDER BY p.value");
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) {
    EXPECT_EQ(row[0], row[1]) << "run n=" << row[0] << " read another run's file";
    EXPECT_THAT(row[2], HasSubstr("/results/runs/out/"));
    EXPECT_EQ(row[3], row[2] + "/run-a1.log");  // its log lives there
    EXPECT_THAT(read_file(row[3]), HasSubstr(" in " + row[2] + "\n{\"lr\": 0.1}"));
    EXPECT_EQ(read_file(row[2] + "/out.txt"), row[0] + "\n");
  }
  r = run_aerun(d, {"show", "1"});
  EXPECT_THAT(r.out, HasSubstr("rundir      " + rows[0][2]));
}

TEST(Rundir, ARetriedRunStartsInAnEmptiedDirectoryAndKeepFailedCleansOkOnes) {
  TempDir d;
  write_file(d / "data/shard0", "tokens\n");
  // n=2 fails while the workdir has a file `break` (leaving a partial checkpoint behind).
  write_file(d / "c.yaml", R"yaml(case: retry
params: {n: [1, 2]}
rundir: {path: 'scratch/{case}-{n}', link: [data], keep: failed}
command: 'ls; cat data/shard0; echo half > ckpt.{n}; if [ {n} = 2 ] && [ -e ../../break ]; then exit 3; fi; echo done'
)yaml");
  write_file(d / "break", "");
  auto r = run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(r.code, 1);
  const std::string one = d / "scratch/retry-1", two = d / "scratch/retry-2";
  // n=1 was ok: emptied but its log; n=2 failed: everything kept for a look.
  EXPECT_FALSE(fs::exists(one + "/ckpt.1"));
  EXPECT_TRUE(fs::exists(one + "/run-a1.log"));
  EXPECT_TRUE(fs::exists(two + "/ckpt.2"));
  EXPECT_TRUE(fs::is_symlink(two + "/data"));
  fs::remove(d / "break");
  r = run_aerun(d, {"case", "c.yaml", "--rerun-failed"});
  ASSERT_EQ(r.code, 0) << r.err;
  // Attempt 2 started in an emptied directory (its `ls` shows no ckpt.2 of attempt 1), and is
  // now ok: emptied again, both logs kept; the linked data is untouched.
  const std::string log2 = read_file(two + "/run-a2.log");
  EXPECT_THAT(log2, HasSubstr("data\nrun-a1.log\nrun-a2.log\ntokens\ndone"));
  EXPECT_TRUE(fs::exists(two + "/run-a1.log"));
  EXPECT_FALSE(fs::exists(two + "/ckpt.2"));
  EXPECT_EQ(read_file(d / "data/shard0"), "tokens\n");
}

TEST(Rundir, PbsJobsRunInTheirOwnDirectoriesMadeReadyAtSubmission) {
  TempDir d;
  write_file(d / "config.json", "{\"lr\": 0.2}\n");
  write_file(d / "c.yaml", R"yaml(case: batch
params: {n: [1, 2]}
rundir: {copy: [config.json], keep: failed}
command: 'echo "in $PWD"; cat config.json; echo {n} > out.txt; test {n} != 2'
resources: {nodes: 1, walltime: 10m, queue: debug, project: p}
)yaml");
  const std::string env =
      "PATH=" + aerun::shell_quote(std::string(AERUN_FIXTURES) + "/pbs:" + std::getenv("PATH")) +
      " PBS_STANDIN_DIR=" + aerun::shell_quote(d / "pbs");
  auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", "pbs"}, env);
  EXPECT_EQ(r.code, 1) << r.err;  // n=2 fails
  const auto rows = sql(d / "results/aerun.db",
                        "SELECT p.value, r.status, r.rundir, r.log_path FROM runs r JOIN "
                        "run_params p ON p.run_id=r.id ORDER BY p.value");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][1], "ok");
  EXPECT_EQ(rows[1][1], "failed");
  for (const auto& row : rows) {
    // The job ran in the run's directory; its log (the scheduler's file) is linked there.
    EXPECT_THAT(read_file(row[3]), HasSubstr("in " + row[2] + "\n{\"lr\": 0.2}"));
    EXPECT_TRUE(fs::is_symlink(row[2] + "/run-a1.log"));
    EXPECT_EQ(read_file(row[2] + "/run-a1.log"), read_file(row[3]));
  }
  // keep: failed — collected ok, n=1's directory was emptied; n=2's output stays.
  EXPECT_FALSE(fs::exists(rows[0][2] + "/out.txt"));
  EXPECT_EQ(read_file(rows[1][2] + "/out.txt"), "2\n");
}

TEST(Rundir, AFolderHoldingACopiedMarkerIsNeverEmptied) {
  // The second adversarial pass: the marker was one fixed sentence, so a folder holding a copy of
  // it (a run folder copied to keep its outputs, or a marker written by hand) was emptied. The
  // marker now names its folder's path and identity.
  TempDir d;
  write_file(d / "c.yaml",
             "case: rd\nparams: {x: [1]}\nrundir: {path: 'scratch/{x}'}\n"
             "command: echo made > out.txt; echo \"time 1\"\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  ASSERT_TRUE(fs::exists(d / "scratch/1/out.txt"));
  // A copy of that run folder, with the user's own file added, used as another case's rundir.
  fs::copy(d / "scratch/1", d / "kept", fs::copy_options::recursive);
  write_file(d / "kept/thesis.txt", "the user's own\n");
  write_file(d / "d.yaml",
             "case: rd2\nparams: {x: [1]}\nrundir: {path: kept}\ncommand: echo \"time 1\"\n");
  auto r = run_aerun(d, {"case", "d.yaml"});
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.err + r.out, HasSubstr("marker aerun did not write in this folder"));
  EXPECT_EQ(read_file(d / "kept/thesis.txt"), "the user's own\n");
  EXPECT_TRUE(fs::exists(d / "kept/out.txt"));
  // A marker written by hand, in the old one-line form, is not aerun's either.
  write_file(d / "mine/.aerun-rundir", "made by aerun: emptied before each attempt of its run\n");
  write_file(d / "mine/data.txt", "keep me\n");
  write_file(d / "e.yaml",
             "case: rd3\nparams: {x: [1]}\nrundir: {path: mine}\ncommand: echo \"time 1\"\n");
  r = run_aerun(d, {"case", "e.yaml"});
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(read_file(d / "mine/data.txt"), "keep me\n");
  // The run folder aerun made is still its own: run again, it is emptied and used.
  r = run_aerun(d, {"case", "c.yaml", "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(d / "scratch/1/out.txt"));
}
