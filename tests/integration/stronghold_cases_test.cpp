// The shipped STRONGHOLD cases on the real binary: their dry-runs print the artifact notebook's
// ./examples/run.sh lines, and a fixture replay goes through `aerun case` and `aerun table
// --format latex|html` and `aerun plot` end to end.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "harness.hpp"

namespace aerun::testing {
namespace {

using ::testing::HasSubstr;

const std::string kCases = std::string(AERUN_CASES_DIR) + "/stronghold";
const std::string kFixtures = std::string(AERUN_FIXTURES) + "/stronghold";

// The lines of each notebook cell (seed 002), as the notebook writes them.
const char* const kNotebook[] = {
    // 2.1 Fig. 6a
    "./examples/run.sh -m \"megatron-lm\" -l 32 -h 2048\n"
    "./examples/run.sh -m \"l2l\" -l 78 -h 2048\n"
    "./examples/run.sh -m \"zero-offload\" -l 48 -h 2048\n"
    "./examples/run.sh -m \"zero-infinity\" -l 48 -h 2048\n"
    "./examples/run.sh -m \"stronghold\" -l 100 -h 2048\n",
    // 2.2 Fig. 7a
    "./examples/run.sh -m \"stronghold\" -l 32 -h 2048 -w 15\n"
    "./examples/run.sh -m \"stronghold\" -l 48 -h 2048 -w 15\n"
    "./examples/run.sh -m \"stronghold\" -l 78 -h 2048 -w 15\n",
    // 2.3 Fig. 8a
    "./examples/run.sh -m \"l2l\" -l 32 -h 2048\n"
    "./examples/run.sh -m \"zero-offload\" -l 32 -h 2048\n"
    "./examples/run.sh -m \"zero-infinity\" -l 32 -h 2048\n",
    // 2.4 Fig. 8b
    "./examples/run.sh -m \"stronghold\" -l 92 -h 2048 -w 15\n"
    "./examples/run.sh -m \"stronghold\" -l 64 -h 2048 -w 15\n"
    "./examples/run.sh -m \"stronghold\" -l 56 -h 2048 -w 15\n"
    "./examples/run.sh -m \"stronghold\" -l 40 -h 2048 -w 15\n"
    "./examples/run.sh -m \"stronghold\" -l 24 -h 2048 -w 15\n"
    "./examples/run.sh -m \"stronghold\" -l 16 -h 2048 -w 15\n",
    // 2.5 Fig. 9
    "./examples/run.sh -m \"stronghold\" -l 32 -h 2048 -w 2\n"
    "./examples/run.sh -m \"stronghold\" -l 32 -h 2048 -w 4\n"
    "./examples/run.sh -m \"stronghold\" -l 32 -h 2048 -w 6\n"
    "./examples/run.sh -m \"stronghold\" -l 32 -h 2048 -w 8\n"
    "./examples/run.sh -m \"stronghold\" -l 32 -h 2048 -w 10\n"
    "./examples/run.sh -m \"stronghold\" -l 32 -h 2048 -w 12\n"
    "./examples/run.sh -m \"stronghold\" -l 32 -h 2048 -w 14\n",
};

// The run command lines of a dry-run (its setup steps and comment lines dropped).
std::string commands_of(const std::string& out) {
  const std::string marker = "# the runs, once their steps succeeded:\n";
  const size_t runs = out.find(marker);
  std::string cmds, line;
  std::istringstream in(runs == std::string::npos ? out : out.substr(runs + marker.size()));
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') cmds += line + "\n";
  return cmds;
}

// Each case builds what its methods need first, as the notebook's runs do (seed 002: `make`
// in <tree>/megatron/data before each method's first run): one step per method, shown first.
TEST(StrongholdCases, EachDryRunShowsTheBuildOfEachOfItsMethodsFirst) {
  TempDir dir;
  const Result r =
      run_aerun(dir, {"case", kCases + "/case1.yaml", "--dry-run", "--db", dir / "a.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* m : {"l2l", "megatron-lm", "stronghold", "zero-infinity", "zero-offload"})
    EXPECT_THAT(r.out, HasSubstr(std::string("# setup step build (method=") + m +
                                 "), before the runs that need it:\n"));
  EXPECT_THAT(r.out, HasSubstr("make -C \"$tree/megatron/data\""));
  EXPECT_LT(r.out.find("# setup step build"), r.out.find("./examples/run.sh"));
  const Result five =
      run_aerun(dir, {"case", kCases + "/case5.yaml", "--dry-run", "--db", dir / "a.db"});
  EXPECT_THAT(five.out, HasSubstr("# setup step build (method=stronghold)"));
  EXPECT_THAT(five.out, ::testing::Not(HasSubstr("method=l2l")));
}

TEST(StrongholdCases, EachDryRunPrintsItsNotebookCellsLinesByteForByte) {
  TempDir dir;
  for (int i = 1; i <= 5; ++i) {
    const Result r = run_aerun(dir, {"case", kCases + "/case" + std::to_string(i) + ".yaml",
                                     "--dry-run", "--db", dir / "a.db"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(commands_of(r.out), kNotebook[i - 1]) << "case" << i;
  }
}

TEST(StrongholdCases, WorkdirIsTheStrongholdCheckoutFromTheEnvironmentOrTheContainersPath) {
  TempDir dir;
  Result r = run_aerun(dir, {"case", kCases + "/case2.yaml", "--dry-run", "--db", dir / "a.db"},
                       "-u STRONGHOLD_DIR");
  EXPECT_THAT(r.out, HasSubstr("workdir /home/sys/STRONGHOLD\n"));
  r = run_aerun(dir, {"case", kCases + "/case2.yaml", "--dry-run", "--db", dir / "a.db"},
                "STRONGHOLD_DIR=/opt/STRONGHOLD");
  EXPECT_THAT(r.out, HasSubstr("workdir /opt/STRONGHOLD\n"));
}

TEST(StrongholdCases, AFixtureReplayGivesFig7aAsABooktabsLatexTable) {
  TempDir dir;
  const std::string db = dir / "r.db";
  const std::string replay = kFixtures + "/fixture_replay_fig7a.yaml";
  Result r = run_aerun(dir, {"case", replay, "--db", db});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  r = run_aerun(dir, {"table", "fig7a", "--cases", replay, "--format", "latex", "--db", db});
  ASSERT_EQ(r.code, 0) << r.err;
  expect_golden(r.out, kFixtures + "/golden/fixture_replay_fig7a.tex");
  EXPECT_THAT(r.out, HasSubstr("\\toprule"));
  EXPECT_THAT(r.out, HasSubstr("\\bottomrule"));

  r = run_aerun(dir, {"table", "fig7a", "--cases", replay, "--format", "html", "--db", db});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("<style>"));
  EXPECT_THAT(r.out, HasSubstr("<td class=\"num pass\">1.00 ✓</td>"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("<link")));  // self-contained
}

TEST(StrongholdCases, PlotWithoutGnuplotInPathIsAClearEnvironmentErrorWithExitStatus4) {
  TempDir dir;
  const std::string db = dir / "r.db";
  run_aerun(dir, {"case", kFixtures + "/fixture_replay_fig7a.yaml", "--db", db});
  const Result r =
      run_aerun(dir, {"plot", "fig8b", "--cases", kCases, "--db", db}, "PATH=/nonexistent");
  EXPECT_EQ(r.code, 4);  // the environment lacks a program, the input is fine
  EXPECT_THAT(r.err, HasSubstr("gnuplot-nox"));
}

}  // namespace
}  // namespace aerun::testing
