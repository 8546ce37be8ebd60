// `steps:` and `provenance:` as case files write them, and the errors they get.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"
#include "parse_error.hpp"

namespace aerun {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kHead = "case: c\nparams: {method: [a, b], n: [1, 2]}\ncommand: echo {n}\n";

TEST(Steps, AMapOfNamedStepsEachWithItsCommandDependenciesAndTimeout) {
  const CaseSpec spec = parse_case(kHead + R"(steps:
  build: {command: 'make -C {method}', depends_on: [method], timeout: 30m}
  fetch: 'curl -O data.tar'
)",
                                   "c.yaml", "/tmp");
  ASSERT_EQ(spec.steps.size(), 2u);
  EXPECT_EQ(spec.steps[0].name, "build");
  EXPECT_EQ(spec.steps[0].command, "make -C {method}");
  EXPECT_EQ(spec.steps[0].depends_on, std::vector<std::string>{"method"});
  EXPECT_EQ(spec.steps[0].timeout_s, 1800);
  EXPECT_EQ(spec.steps[1].command, "curl -O data.tar");
  EXPECT_TRUE(spec.steps[1].depends_on.empty());
}

TEST(Steps, AStepNamesOnlyTheParametersItDependsOn) {
  EXPECT_THAT(testing::parse_error(kHead + "steps:\n  build: 'make {method}'\n", "c.yaml"),
              AllOf(StartsWith("c.yaml:5:"), HasSubstr("steps.build.command"),
                    HasSubstr("add it: `depends_on: [method]`")));
  EXPECT_THAT(testing::parse_error(
                  kHead + "steps:\n  build: {command: make, depends_on: [methd]}\n", "c.yaml"),
              AllOf(HasSubstr("steps.build.depends_on"), HasSubstr("did you mean 'method'")));
  EXPECT_THAT(testing::parse_error(kHead + "steps:\n  build: {depends_on: [method]}\n", "c.yaml"),
              HasSubstr("missing required key 'command'"));
  EXPECT_THAT(
      testing::parse_error(kHead + "steps:\n  build: {command: make, after: x}\n", "c.yaml"),
      HasSubstr("unknown key 'after'"));
}

TEST(Provenance, NamedCommandsWithATimeoutOfTheirOwn) {
  const CaseSpec spec = parse_case(kHead + R"(provenance:
  torch: "python -c 'import torch; print(torch.__version__)'"
  nccl: {command: 'cat /proc/driver/nvidia/version', timeout: 5s}
)",
                                   "c.yaml", "/tmp");
  ASSERT_EQ(spec.provenance.size(), 2u);
  EXPECT_EQ(spec.provenance[0].name, "torch");
  EXPECT_EQ(spec.provenance[0].timeout_s, 30);
  EXPECT_EQ(spec.provenance[1].timeout_s, 5);
  EXPECT_THAT(testing::parse_error(kHead + "provenance:\n  x: {timeout: 5s}\n", "c.yaml"),
              HasSubstr("missing required key 'command'"));
  EXPECT_THAT(testing::parse_error(kHead + "provenance:\n  'a b': true\n", "c.yaml"),
              HasSubstr("provenance names are made of"));
}

}  // namespace
}  // namespace aerun
