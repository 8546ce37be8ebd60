// `aerun diff RUN_A RUN_B`: two stored runs side by side — what differs, metrics with the change.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(Diff, TwoWidthsDifferInTheirParameterMetricAndCommandNotInTheRest) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: widths
params: {hidden: [64, 128]}
env: {OMP_NUM_THREADS: 2}
command: 'echo "samples per second: $(( {hidden} / 8 ))"'
metrics: {samples_per_s: {regex: 'samples per second: ([0-9.]+)', unit: samples/s}}
)yaml");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string db = d / "results/aerun.db";
  const std::string a = sql1(db, "SELECT key FROM runs WHERE id=1").substr(0, 10);
  const std::string b = sql1(db, "SELECT key FROM runs WHERE id=2").substr(0, 10);
  auto r = run_aerun(d, {"diff", a, b});
  EXPECT_EQ(r.code, 1) << r.err;  // they differ in what they are
  EXPECT_THAT(r.out, HasSubstr("parameters (1 differ)\n  hidden               64"));
  EXPECT_THAT(r.out, HasSubstr("128\n"));
  EXPECT_THAT(r.out, HasSubstr("  samples_per_s        8 samples/s                16 samples/s"));
  EXPECT_THAT(r.out, HasSubstr("+100.0 %"));
  EXPECT_THAT(r.out, HasSubstr("how it ran (1 differ, 9 the same)\n  command"));
  EXPECT_THAT(r.out, HasSubstr("environment set by the case (0 differ, 1 the same)"));
  EXPECT_THAT(r.out, Not(HasSubstr("OMP_NUM_THREADS")));
  // --all lists the same entries too.
  r = run_aerun(d, {"diff", a, b, "--all"});
  EXPECT_THAT(r.out, HasSubstr("OMP_NUM_THREADS      2                          2"));
  EXPECT_THAT(r.out, HasSubstr("  case                 widths"));
  // A run against itself: nothing differs but what it measured (the same too), exit 0.
  r = run_aerun(d, {"diff", a, a});
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("parameters (0 differ, 1 the same)"));
  EXPECT_THAT(r.out, HasSubstr("(same)"));
  // A run that is not there: exit 2, named.
  r = run_aerun(d, {"diff", a, "ffffff"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("B: no run or session 'ffffff'"));
}
