// `steps:` — setup commands before the runs: once per distinct value of the parameters they
// depend on, reused once they succeeded, and a run starts only after its steps succeeded.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// A build per method (counted in builds.txt); method b's build fails while `broken` exists.
const char* kCase = R"yaml(case: st
params: {method: [a, b], layers: [1, 2]}
steps:
  build:
    depends_on: [method]
    timeout: 1m
    command: 'echo {method} >> builds.txt; if [ {method} = b ] && [ -e broken ]; then exit 1; fi; mkdir -p out; touch out/{method}.built'
  data: 'echo tokens > data.txt'
command: 'test -e out/{method}.built && cat data.txt && echo layers {layers}'
)yaml";

// The lines of a file, sorted (steps run at once with -j finish in any order).
std::string sorted_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::istringstream in(read_file(path));
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace

TEST(Steps, ABuildPerMethodRunsOnceBeforeItsRunsAndIsReusedAfter) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  auto r = run_aerun(d, {"case", "c.yaml", "-j", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sorted_lines(d / "builds.txt"), "a\nb\n");  // once per method, before the four runs
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE case_name='st' AND status='ok'"), "4");
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE case_name='st.build' AND status='ok'"), "2");
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE case_name='st.data' AND status='ok'"), "1");
  // Every step and run is in this invocation's session, each with its own log.
  EXPECT_EQ(sql1(db, "SELECT count(DISTINCT session_id) FROM runs"), "1");
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE case_name LIKE 'st%' AND log_path=''"), "0");
  r = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sorted_lines(d / "builds.txt"), "a\nb\n");  // reused: built once
  // A changed step command is another step: it runs again (the runs, unchanged, are reused).
  write_file(d / "c.yaml", std::string(kCase) + "# a comment changes no command\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  EXPECT_EQ(sorted_lines(d / "builds.txt"), "a\nb\n");
  std::string edited = kCase;
  edited.replace(edited.find("timeout: 1m"), 11, "timeout: 2m");  // not part of what it is
  edited.replace(edited.find("mkdir -p out"), 12, "mkdir -p ./out");
  write_file(d / "c.yaml", edited);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  EXPECT_EQ(sorted_lines(d / "builds.txt"), "a\na\nb\nb\n");
}

TEST(Steps, AFailedStepHoldsBackOnlyTheRunsThatNeedItUntilItIsFixed) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  write_file(d / "broken", "");
  auto r = run_aerun(d, {"case", "c.yaml"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("2 runs of case 'st' not started: step build (method=b) failed "
                               "(its log: aerun runs --case st.build)"));
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db,
                 "SELECT group_concat(p.value) FROM runs r JOIN run_params p ON "
                 "p.run_id=r.id AND p.name='method' WHERE r.case_name='st'"),
            "a,a");  // b's runs never started, and are not stored
  EXPECT_EQ(sql1(db,
                 "SELECT status FROM runs r JOIN run_params p ON p.run_id=r.id WHERE "
                 "r.case_name='st.build' AND p.value='b'"),
            "failed");
  // Fixed: the next `aerun case` runs the failed build again (a step's failure is never kept as
  // a result), then b's runs; a's build and runs are reused.
  std::filesystem::remove(d / "broken");
  r = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(d / "builds.txt"), "a\nb\nb\n");
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE case_name='st' AND status='ok'"), "4");
}

TEST(Steps, OnlyTheStepsOfTheSelectedRunsRunAndADryRunShowsThemFirst) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  auto r = run_aerun(d, {"case", "c.yaml", "--only", "method=b"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(d / "builds.txt"), "b\n");
  r = run_aerun(d, {"case", "c.yaml", "--dry-run", "--only", "method=a"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("# setup step build (method=a), before the runs that need it:\n(\n"
                               "echo a >> builds.txt;"));
  EXPECT_THAT(r.out, HasSubstr("# setup step data, before the runs that need it:\n(\necho tokens "
                               "> data.txt\n) || exit\n# the runs, once their steps succeeded:\n"));
  // The dry-run is a script: piped into bash it builds, then runs.
  std::filesystem::remove(d / "builds.txt");
  const std::string out =
      command_output("cd " + aerun::shell_quote(d.path().string()) + " && " +
                     aerun::shell_quote(AERUN_BINARY) + " case c.yaml --dry-run | bash 2>&1");
  EXPECT_EQ(out, "tokens\nlayers 1\ntokens\nlayers 2\ntokens\nlayers 1\ntokens\nlayers 2\n");
  EXPECT_EQ(read_file(d / "builds.txt"), "a\nb\n");
}

namespace {

// The builds wait for the file go: the test says when they end, so a loaded machine cannot end
// them before aerun submitted the runs that wait for them.
const char* kBatchCase = R"yaml(case: sp
params: {method: [a, b], n: [1, 2]}
steps:
  build:
    depends_on: [method]
    command: 'while [ ! -e go ]; do sleep 0.05; done; if [ -e broken-{method} ]; then exit 2; fi; echo built-{method} > built-{method}.txt'
command: 'cat built-{method}.txt; echo n={n}'
resources: {nodes: 1, walltime: 10m, queue: debug, project: p}
)yaml";

std::string pbs_env(const TempDir& d) {
  return "PATH=" + aerun::shell_quote(std::string(AERUN_FIXTURES) + "/pbs:" + std::getenv("PATH")) +
         " PBS_STANDIN_DIR=" + aerun::shell_quote(d / "pbs");
}

}  // namespace

TEST(Steps, AsPbsJobsTheRunsArrayWaitsForTheBuildJobAndCollectGathersBoth) {
  TempDir d;
  write_file(d / "c.yaml", kBatchCase);
  auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", "pbs", "--no-wait"}, pbs_env(d));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[sp.build] submitted job 1[].standin (2 runs, an array)"));
  EXPECT_THAT(r.err, HasSubstr("[sp] submitted job 2[].standin (4 runs, an array)"));
  // The runs' array was submitted with `qsub -W depend=afterok:<the build's job>`.
  EXPECT_THAT(read_file(d / "pbs/jobs/2.json"), HasSubstr("\"depend\": \"afterok:1[].standin\""));
  write_file(d / "go", "");
  r = run_aerun(d, {"collect", "sp", "--wait"}, pbs_env(d));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err + r.out, HasSubstr("collected 6 of 6 run(s): 6 ok"));
  const std::string db = d / "results/aerun.db";
  // Each run read what its method's build (which waited for go) wrote: it started after it.
  for (const auto& log : sql(db, "SELECT log_path FROM runs WHERE case_name='sp'"))
    EXPECT_THAT(read_file(log[0]), ::testing::MatchesRegex("built-[ab]\nn=[12]\n"));
}

TEST(Steps, AFailedBuildJobKeepsItsRunsFromBeingSubmittedOrStartsNone) {
  TempDir d;
  write_file(d / "c.yaml", kBatchCase);
  write_file(d / "broken-b", "");
  write_file(d / "go", "");
  // Followed (the default): the builds end first; b's runs are never submitted.
  auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", "pbs"}, pbs_env(d));
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("2 runs of case 'sp' not submitted: a setup step failed"));
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE case_name='sp' AND status='ok'"), "2");
  EXPECT_EQ(sql1(db,
                 "SELECT status FROM runs r JOIN run_params p ON p.run_id=r.id WHERE "
                 "r.case_name='sp.build' AND p.value='b'"),
            "failed");
  // --no-wait: the runs wait on the failed build, and the scheduler deletes them (never run).
  TempDir e;
  write_file(e / "c.yaml", kBatchCase);
  write_file(e / "broken-a", "");
  write_file(e / "broken-b", "");
  r = run_aerun(e, {"case", "c.yaml", "--scheduler", "pbs", "--no-wait"}, pbs_env(e));
  ASSERT_EQ(r.code, 0) << r.err;
  write_file(e / "go", "");
  r = run_aerun(e, {"collect", "sp", "--wait"}, pbs_env(e));
  EXPECT_EQ(r.code, 1);
  const std::string edb = e / "results/aerun.db";
  EXPECT_EQ(sql1(edb, "SELECT group_concat(DISTINCT status) FROM runs WHERE case_name='sp'"),
            "cancelled");
  EXPECT_EQ(sql1(edb, "SELECT count(*) FROM runs WHERE case_name='sp.build' AND status='failed'"),
            "2");
}
