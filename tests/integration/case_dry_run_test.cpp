// `aerun case --dry-run`: every run's shell-ready command and the count, nothing launched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(DryRun, PrintsEveryExpandedCommandAndTheCountAndLaunchesNothing) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: fig7a
params: {hidden: 2048, window: 4}
zip:
  - {method: [megatron-lm, l2l, zero-offload, zero-infinity], layers: [32, 78, 48, 48]}
include:
  - {method: stronghold, layers: [32, 48, 78], window: 15}
command: ./examples/run.sh -m {method} -l {layers} -h {hidden} -w {window}
)yaml");
  const auto r = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("./examples/run.sh -m megatron-lm -l 32 -h 2048 -w 4\n"
                               "./examples/run.sh -m l2l -l 78 -h 2048 -w 4\n"
                               "./examples/run.sh -m zero-offload -l 48 -h 2048 -w 4\n"
                               "./examples/run.sh -m zero-infinity -l 48 -h 2048 -w 4\n"
                               "./examples/run.sh -m stronghold -l 32 -h 2048 -w 15\n"
                               "./examples/run.sh -m stronghold -l 48 -h 2048 -w 15\n"
                               "./examples/run.sh -m stronghold -l 78 -h 2048 -w 15\n"
                               "# 7 runs\n"));
  EXPECT_FALSE(fs::exists(d / "results"));
}

TEST(DryRun, ParameterValuesAreShellQuotedAndCannotInjectCode) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: quoting
params:
  name: ["plain", "two words", "$(touch pwned)", "x; touch pwned2", "it's"]
command: printf '%s\n' {name} "$HOME" >> out.txt
)yaml");
  const auto r = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("printf '%s\\n' '$(touch pwned)' \"$HOME\" >> out.txt\n"));
  EXPECT_THAT(r.out, HasSubstr("# 5 runs\n"));
  // Running the very same commands through a shell prints the values back, and runs no code.
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string out = read_file(d / "out.txt");
  for (const char* v :
       {"plain\n", "two words\n", "$(touch pwned)\n", "x; touch pwned2\n", "it's\n"})
    EXPECT_THAT(out, HasSubstr(v));
  EXPECT_FALSE(fs::exists(d / "pwned"));
  EXPECT_FALSE(fs::exists(d / "pwned2"));
}

TEST(DryRun, RepeatsMultiplyTheRunsAndOnlyFilters) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: r\nparams: {a: [1, 2, 3]}\nrepeat: 3\ncommand: echo {a} {repeat}\n");
  EXPECT_THAT(run_aerun(d, {"case", "c.yaml", "-n"}).out, HasSubstr("# 9 runs"));
  const auto r = run_aerun(
      d, {"case", "c.yaml", "-n", "--only", "a=2", "--only", "a=3", "--only", "repeat=0"});
  EXPECT_THAT(r.out, HasSubstr("echo 2 0\necho 3 0\n# 2 runs\n"));
}

TEST(DryRun, AParameterNamedLikeAMuparserxFunctionWorksInDeriveAndExclude) {
  // `size` and `sum` are muparserx functions; here they are the case's parameters.
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: builtin-names
params: {size: [1, 2, 4], sum: 10}
derive:
  total: size * sum
exclude:
  - "size + sum > 13"
command: echo {size} {total}
)yaml");
  const auto r = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  // total = size * 10: 10, 20 (40 for size 4 is excluded: 4 + 10 = 14 > 13)
  EXPECT_THAT(r.out, HasSubstr("echo 1 10\necho 2 20\n# 2 runs\n"));
}

TEST(DryRun, AFunctionNameWrittenAsAValueIsAnErrorNamingFileLineAndKey) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: builtin-names
params: {layers: [1, 2]}
derive:
  total: size * layers
command: echo {total}
)yaml");
  const auto r = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.err, HasSubstr("c.yaml:4:3: derive.total: bad formula \"size * layers\": 'size' "
                               "is a muparserx function, written here as a value"));
}
