// `aerun init`: the starter case is written where asked, never over a file, and runs the command
// it was made from.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(Init, WritesACaseWhoseDryRunIsTheCommandBackForEachSweptValue) {
  TempDir d;
  auto r = run_aerun(d, {"init", "fig7a", "--sweep", "l=16,32", "--", "./examples/run.sh", "-m",
                         "stronghold", "-l", "32", "-h", "2048"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("wrote cases/fig7a.yaml"));
  // Editors find the schema (the source tree's, for a build that is not installed).
  EXPECT_THAT(read_file(d / "cases/fig7a.yaml"),
              ::testing::StartsWith("# yaml-language-server: $schema=/"));
  EXPECT_THAT(read_file(d / "cases/fig7a.yaml"), HasSubstr("schema/case.schema.json\n"));
  r = run_aerun(d, {"case", "cases/fig7a.yaml", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("./examples/run.sh -m stronghold -l 16 -h 2048\n"));
  EXPECT_THAT(r.out, HasSubstr("./examples/run.sh -m stronghold -l 32 -h 2048\n"));
  // Never over an existing file, unless asked.
  r = run_aerun(d, {"init", "fig7a", "--", "./other.sh"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("cases/fig7a.yaml: --out: exists; pass --force"));
  EXPECT_THAT(read_file(d / "cases/fig7a.yaml"), HasSubstr("./examples/run.sh"));
  r = run_aerun(d, {"init", "fig7a", "--force", "--", "./other.sh"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(read_file(d / "cases/fig7a.yaml"), HasSubstr("command: './other.sh'"));
  // To stdout, and a real run of what it wrote.
  r = run_aerun(d, {"init", "echoes", "--out", "-", "--sweep", "n=1,2,3", "--", "echo", "-n", "5"});
  ASSERT_EQ(r.code, 0) << r.err;
  write_file(d / "echoes.yaml", r.out);
  r = run_aerun(d, {"case", "echoes.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs WHERE status='ok'"), "3");
}

TEST(Init, ABadSweepIsExitCode2NamingTheParameters) {
  TempDir d;
  const auto r =
      run_aerun(d, {"init", "t", "--sweep", "hiden=1,2", "--", "./run.sh", "--hidden", "8"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err,
              HasSubstr("'hiden' is not a parameter of the command (did you mean 'hidden'?)"));
  EXPECT_FALSE(fs::exists(d / "cases"));
}
