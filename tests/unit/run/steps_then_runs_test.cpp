// Setup steps, then the runs that need them (steps_then_runs.hpp), on the fake executor: a run
// starts only once every step instance it needs succeeded; the others are counted and said.
#include "aerun/run/steps_then_runs.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <sstream>

#include "aerun/case/case_loader.hpp"
#include "aerun/store/store.hpp"
#include "fake_executor.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using testing::FakeExecutor;
using testing::FakeScript;
using ::testing::HasSubstr;

// A build per method (fast, slow), then each method's runs (n = 1, 2).
const char* kCase = R"yaml(case: t
params: {method: [fast, slow], n: [1, 2]}
command: train {method} {n}
metrics:
  step: {regex: 'step (\d+)', progress: true}
steps:
  build:
    depends_on: [method]
    command: make {method}
)yaml";

class StepsThenRunsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/aerun-steps-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    store_ = std::make_unique<Store>((dir_ / "aerun.db").string());
    spec_ =
        std::make_unique<CaseSpec>(parse_case(kCase, (dir_ / "c.yaml").string(), dir_.string()));
    fake_.default_script(testing::steps(1, 1.0));
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  StepsThenRunsOutcome run() {
    SetupSteps steps(*spec_);
    long long total = 0;
    plan_runs(*spec_, nullptr, [&](const PlannedRun& p) {
      steps.need(p);
      ++total;
      return true;
    });
    RunnerOptions o;
    o.logs_dir = (dir_ / "logs").string();
    return run_steps_then_runs(
        *spec_, steps, *store_, o,
        [&](const std::function<bool(const PlannedRun&)>& sink) {
          plan_runs(*spec_, nullptr, sink);
        },
        total, out_, fake_);
  }
  std::vector<std::string> started() const {
    std::vector<std::string> v;
    for (const auto& s : fake_.starts()) v.push_back(s->command);
    return v;
  }

  fs::path dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<CaseSpec> spec_;
  FakeExecutor fake_;
  std::ostringstream out_;
};

TEST_F(StepsThenRunsTest, EveryStepRunsBeforeTheRuns) {
  const auto o = run();
  EXPECT_THAT(started(), ElementsAre("make fast", "make slow", "train fast 1", "train fast 2",
                                     "train slow 1", "train slow 2"));
  EXPECT_EQ(o.steps.ok, 2);
  EXPECT_EQ(o.runs.ok, 4);
  EXPECT_EQ(o.exit_status(), 0);
}

TEST_F(StepsThenRunsTest, AFailedStepBlocksOnlyTheRunsThatNeedIt) {
  FakeScript fails;
  fails.exit_code = 2;
  fake_.script("make slow", fails);
  const auto o = run();
  EXPECT_THAT(started(), ElementsAre("make fast", "make slow", "train fast 1", "train fast 2"));
  EXPECT_EQ(o.blocked, 2);
  EXPECT_EQ(o.runs.planned, 2);
  EXPECT_EQ(o.exit_status(), 1);
  EXPECT_THAT(out_.str(), HasSubstr("aerun: 2 runs of case 't' not started: step build "
                                    "(method=slow) failed (its log: aerun runs --case t.build)"));
}

TEST_F(StepsThenRunsTest, AStopDuringTheStepsStartsNoRun) {
  FakeScript slow_build = testing::steps(1, 10.0);
  fake_.script("make fast", slow_build);
  fake_.at(5.0, [] { ::raise(SIGINT); });
  const auto o = run();
  EXPECT_THAT(started(), ElementsAre("make fast"));
  EXPECT_EQ(o.exit_status(), 128 + SIGINT);
}

}  // namespace
}  // namespace aerun
