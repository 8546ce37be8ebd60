// BatchRunner and JobFollower against a scheduler in memory (fake_scheduler.hpp): what is
// submitted, what is stored while jobs wait and run, and how each way a job can end is judged.
// The same paths against a real Slurm: tests/integration/slurm_*_test.cpp.
#include "aerun/sched/batch_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <tuple>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../run/fake_executor.hpp"
#include "aerun/case/case_loader.hpp"
#include "aerun/judge/run_status.hpp"
#include "aerun/run/signal_watch.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/process_identity.hpp"
#include "fake_scheduler.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;
using testing::FakeExecutor;
using testing::FakeScheduler;

std::string read_fixture(const std::string& name) {
  std::ifstream in(std::string(AERUN_FIXTURES) + "/sched/" + name);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
using ::testing::HasSubstr;

class BatchRunnerFake : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("aerun-batch-fake-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    store_ = std::make_unique<Store>((dir_ / "store.db").string());
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  // A sweep of `l` (the loss a run prints) over three values; each run prints its loss and exits
  // with `exit`.
  CaseSpec make_case(const std::string& extra = "") {
    return parse_case(
        "case: fake\n"
        "command: 'echo \"lm loss: {l}\"; exit {code}'\n"
        "params:\n  l: [1.5, 2.5, 3.5]\n  code: 0\n"
        "metrics:\n  loss: 'lm loss: ([0-9.]+)'\n" +
            extra,
        (dir_ / "fake.yaml").string(), dir_.string());
  }

  BatchSummary run(const CaseSpec& spec, FakeScheduler& sched, bool wait = true,
                   double max_wait_s = 0) {
    planned_.clear();
    plan_runs(spec, nullptr, [&](const PlannedRun& p) {
      planned_.push_back(p);
      return true;
    });
    BatchOptions o;
    o.wait = wait;
    o.logs_dir = (dir_ / "logs").string();
    o.follow.max_wait_s = max_wait_s;
    // aerun's own intervals (a poll a second, growing to 30 s; a busy controller asked again
    // after 2 s, then 4 s, ...), on a virtual clock.
    BatchRunner runner(spec, store_.get(), Scheduler::Slurm, o, out_, clock_);
    return runner.run(planned_, sched);
  }

  // A sweep of n runs of `echo` (parameter name), each ending ok.
  CaseSpec many(int n, const std::string& name = "i") {
    std::string values;
    for (int i = 0; i < n; ++i) values += (i ? ", " : "") + std::to_string(i);
    return parse_case("case: many" + name + "\ncommand: 'echo {" + name + "}'\nparams:\n  " + name +
                          ": [" + values + "]\n",
                      (dir_ / ("many" + name + ".yaml")).string(), dir_.string());
  }

  std::vector<RunRecord> stored() {
    std::vector<RunRecord> out;
    for (const auto& p : planned_) out.push_back(store_->find_by_key(p.key).value());
    return out;
  }

  fs::path dir_;
  std::unique_ptr<Store> store_;
  std::vector<PlannedRun> planned_;
  std::ostringstream out_;
  FakeExecutor clock_;  // no processes of its own: the clocks and the waits
};

TEST_F(BatchRunnerFake, ASweepIsOneArrayJobWhoseTasksEndOkWithTheirMetrics) {
  FakeScheduler sched;
  const BatchSummary s = run(make_case(), sched);
  EXPECT_EQ(s.jobs, 1);
  EXPECT_EQ(s.submitted, 3);
  EXPECT_EQ(s.ok, 3);
  EXPECT_EQ(s.outstanding, 0);
  ASSERT_EQ(sched.submitted_scripts.size(), 1u);
  const auto runs = stored();
  for (size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].status, run_status::ok) << runs[i].reason;
    EXPECT_EQ(runs[i].job_id, "100_" + std::to_string(i));
    EXPECT_EQ(runs[i].scheduler_state, "COMPLETED");
    ASSERT_NE(runs[i].metric("loss"), nullptr);
    EXPECT_DOUBLE_EQ(runs[i].metric("loss")->value, 1.5 + static_cast<double>(i));
  }
}

TEST_F(BatchRunnerFake, WithoutWaitingTheRunsAreStoredPendingWithTheirJobIds) {
  FakeScheduler sched;
  const BatchSummary s = run(make_case(), sched, /*wait=*/false);
  EXPECT_EQ(s.outstanding, 3);
  EXPECT_EQ(sched.queries, 1);  // one look, for jobs that failed at once
  for (const auto& r : stored()) {
    EXPECT_EQ(r.status, run_status::pending);
    EXPECT_THAT(r.job_id, HasSubstr("100_"));
    EXPECT_TRUE(r.submit_time.has_value());
  }
}

TEST_F(BatchRunnerFake, ARefusedSubmissionIsStoredAsSubmitFailedWithTheSchedulersWords) {
  FakeScheduler sched;
  sched.refuse_with = "sbatch: error: invalid partition specified: gpu_p5";
  const BatchSummary s = run(make_case(), sched);
  EXPECT_EQ(s.submit_failed, 3);
  EXPECT_EQ(s.jobs, 0);
  EXPECT_THAT(s.last_error, HasSubstr("invalid partition"));
  for (const auto& r : stored()) {
    EXPECT_EQ(r.status, run_status::submit_failed);
    EXPECT_THAT(r.reason, HasSubstr("invalid partition"));
  }
}

// Issue 29: a sweep larger than the cluster's MaxArraySize is cut into arrays that fit, each run
// still one task of one of them; the output says how many and why.
TEST_F(BatchRunnerFake, ASweepLargerThanTheArrayLimitIsCutIntoArraysThatFit) {
  FakeScheduler sched;
  sched.max_array_size = 4;
  const BatchSummary s = run(many(10), sched);
  EXPECT_EQ(s.jobs, 3);  // 4 + 4 + 2
  EXPECT_EQ(s.submit_failed, 0);
  EXPECT_EQ(s.ok, 10);
  EXPECT_THAT(out_.str(), HasSubstr("10 runs in 3 arrays of at most 4: MaxArraySize = 4"));
  std::set<std::string> jobs;
  for (const auto& r : stored()) {
    EXPECT_EQ(r.status, run_status::ok) << r.reason;
    jobs.insert(r.job_id);
  }
  EXPECT_EQ(jobs.size(), 10u);  // no two runs share a task
}

// With a cap on tasks at once (array_cap, --max-queued), the parts of a cut sweep run one after
// another (each waits for the one before it to end, however it ended): the cap holds overall.
TEST_F(BatchRunnerFake, CutArraysUnderACapStartEachAfterTheOneBeforeIt) {
  FakeScheduler sched;
  sched.max_array_size = 4;
  std::string values;
  for (int i = 0; i < 10; ++i) values += (i ? ", " : "") + std::to_string(i);
  const CaseSpec spec = parse_case("case: capped\ncommand: 'echo {i}'\nparams:\n  i: [" + values +
                                       "]\nresources: {array_cap: 2}\n",
                                   (dir_ / "capped.yaml").string(), dir_.string());
  const BatchSummary s = run(spec, sched);
  EXPECT_EQ(s.jobs, 3);
  EXPECT_EQ(s.ok, 10);
  const std::vector<std::vector<std::string>> want{{}, {"100"}, {"101"}};
  EXPECT_EQ(sched.waits_for_end, want);
  EXPECT_THAT(out_.str(), HasSubstr("each starts when the one before it ended, so that at most 2 "
                                    "run at once"));
}

TEST_F(BatchRunnerFake, ASiteThatHidesItsLimitSetsItInTheEnvironment) {
  FakeScheduler sched;
  sched.max_array_size = 4;
  sched.tell_limit = false;
  // Unknown: one array of 10, refused with Slurm's words, and the reason names the way out.
  BatchSummary s = run(many(10), sched);
  EXPECT_EQ(s.submit_failed, 10);
  EXPECT_THAT(s.last_error, HasSubstr("Invalid job array specification (an array of 10 tasks; "
                                      "aerun could not read the limit: set AERUN_MAX_ARRAY_SIZE "
                                      "to the cluster's limit, its MaxArraySize,"));
  ::setenv("AERUN_MAX_ARRAY_SIZE", "3", 1);
  s = run(many(10), sched);
  ::unsetenv("AERUN_MAX_ARRAY_SIZE");
  EXPECT_EQ(s.jobs, 4);  // 3 + 3 + 3 + 1 (the last a plain job)
  EXPECT_EQ(s.ok, 10);
  // 0 turns arrays off: a job per run.
  ::setenv("AERUN_MAX_ARRAY_SIZE", "0", 1);
  s = run(many(3, "x"), sched);
  ::unsetenv("AERUN_MAX_ARRAY_SIZE");
  EXPECT_EQ(s.jobs, 3);
  EXPECT_EQ(s.ok, 3);
}

// Issue 29: a controller too busy to answer ("Socket timed out on send/recv operation") is asked
// again after a pause that doubles; a refusal that is no such thing is never retried.
TEST_F(BatchRunnerFake, ABusyControllerIsAskedAgainAndTheRunsEndOk) {
  FakeScheduler sched;
  sched.busy = 2;
  const BatchSummary s = run(many(3), sched);
  EXPECT_EQ(sched.submit_calls, 3);
  EXPECT_EQ(s.submit_retries, 2);
  EXPECT_EQ(s.submit_failed, 0);
  EXPECT_EQ(s.ok, 3);
  EXPECT_THAT(out_.str(), HasSubstr("Socket timed out on send/recv operation; trying again in "
                                    "2 s (try 2 of 5)"));
  EXPECT_THAT(out_.str(), HasSubstr("trying again in 4 s (try 3 of 5)"));
  EXPECT_THAT(out_.str(), HasSubstr("2 submission(s) tried again (the scheduler was busy)"));
}

TEST_F(BatchRunnerFake, AJobTakenBeforeItsAnswerWasLostIsFollowedNotSubmittedTwice) {
  FakeScheduler sched;
  sched.busy = 1;
  sched.taken_anyway = true;
  const BatchSummary s = run(many(3), sched);
  EXPECT_EQ(sched.submitted_scripts.size(), 1u);  // one array, once
  EXPECT_EQ(s.submit_retries, 0);
  EXPECT_EQ(s.ok, 3);
  EXPECT_THAT(out_.str(), HasSubstr("was taken as job 100 although the scheduler said"));
}

TEST_F(BatchRunnerFake, AControllerBusyPastEveryTryOrARealRefusalFailsTheSubmission) {
  FakeScheduler sched;
  sched.busy = 10;
  BatchSummary s = run(many(3), sched);
  EXPECT_EQ(sched.submit_calls, 5);  // submit_tries
  EXPECT_EQ(s.submit_failed, 3);
  EXPECT_THAT(s.last_error, HasSubstr("Socket timed out"));
  FakeScheduler refusing;
  refusing.refuse_with = "sbatch: error: invalid partition specified: gpu_p5";
  s = run(many(3, "y"), refusing);
  EXPECT_EQ(refusing.submit_calls, 1);
  EXPECT_EQ(s.submit_failed, 3);
}

// A Ctrl-C while aerun waits to try again stops it there: the runs not taken are interrupted,
// nothing more is submitted.
TEST_F(BatchRunnerFake, AStopWhileWaitingToTryAgainLeavesTheRunsInterrupted) {
  FakeScheduler sched;
  sched.busy = 10;
  SignalWatch outer;  // the Ctrl-C is held until the wait looks (watches nest)
  raise(SIGINT);
  const BatchSummary s = run(many(3), sched);
  EXPECT_EQ(s.stop_signal, SIGINT);
  EXPECT_EQ(sched.submit_calls, 1);
  for (const auto& r : stored()) {
    EXPECT_EQ(r.status, run_status::interrupted);
    EXPECT_THAT(r.reason, HasSubstr("stopped by SIGINT before the scheduler took it"));
  }
}

TEST(ArrayLimit, ANameEqualsNumberLineOfAListingIsRead) {
  // `scontrol show config` of this machine's Slurm 22.05 (tests/fixtures/sched/README.md).
  const std::string scontrol = read_fixture("scontrol_show_config_22.05.txt");
  EXPECT_EQ(setting_number(scontrol, "MaxArraySize"), 1001);
  EXPECT_EQ(setting_number(scontrol, "MaxJobCount"), 10000);
  EXPECT_FALSE(setting_number(scontrol, "MaxArray"));             // a whole name only
  EXPECT_FALSE(setting_number(scontrol, "SchedulerParameters"));  // no number
  // `qmgr -c 'list server max_array_size'` as openpbs's qmgr.c prints it: the object's line, then
  // each attribute indented.
  EXPECT_EQ(setting_number("Server pbs01\n    max_array_size = 2000\n", "max_array_size"), 2000);
  EXPECT_FALSE(setting_number("Server pbs01\n", "max_array_size"));
}

// A per-user limit (Slurm's MaxSubmitJobs of an association or QOS) names itself and the way out.
TEST_F(BatchRunnerFake, ARefusalByAPerUserLimitSaysWhereToReadItAndHowToQueueLess) {
  FakeScheduler sched;
  sched.refuse_with =
      "sbatch rejected the job: sbatch: error: QOSMaxSubmitJobPerUserLimit\nsbatch: error: Batch "
      "job submission failed: Job violates accounting/QOS policy (job submit limit, user's size "
      "and/or time limits)";
  const BatchSummary s = run(many(3), sched);
  EXPECT_EQ(s.submit_failed, 3);
  EXPECT_EQ(sched.submit_calls, 1);  // not a busy controller: not tried again
  EXPECT_THAT(s.last_error,
              HasSubstr("(a limit on your jobs in the queue, each array task counting "
                        "as one: this array asked for 3 more; see `sacctmgr show "
                        "assoc user=$USER format=MaxSubmit,MaxJobs`"));
}

// Issue 29: a per-user limit reached mid-case (MaxSubmitJobs, each array task counting) holds the
// rest back inside aerun; they go out as earlier jobs end, and every run ends ok.
TEST_F(BatchRunnerFake, RunsAPerUserLimitRefusesWaitForEarlierJobsToEnd) {
  FakeScheduler sched;
  sched.max_array_size = 4;
  sched.max_submit_jobs = 5;
  const BatchSummary s = run(many(10), sched);  // arrays of 4, 4, 2
  EXPECT_EQ(s.submit_failed, 0) << s.last_error;
  EXPECT_EQ(s.ok, 10);
  EXPECT_EQ(s.jobs, 3);
  EXPECT_GE(s.held, 1);
  EXPECT_LE(s.held, 2);  // the second and third arrays at most: each counted once
  EXPECT_THAT(out_.str(), HasSubstr("held back (Job violates accounting/QOS policy"));
  // Said once a job, however many polls found the quota still full.
  const std::string text = out_.str();
  int said = 0;
  for (size_t at = text.find("held back ("); at != std::string::npos;
       at = text.find("held back (", at + 1))
    ++said;
  EXPECT_EQ(said, s.held);
  EXPECT_THAT(out_.str(), HasSubstr("held back by a per-user limit until earlier ones ended"));
  // Without waiting there is nothing to wait for: the refusal fails the runs, with the way out.
  FakeScheduler full;
  full.max_submit_jobs = 2;
  const BatchSummary n = run(many(3, "z"), full, /*wait=*/false);
  EXPECT_EQ(n.submit_failed, 3);
  EXPECT_THAT(n.last_error, HasSubstr("each array task counting as one"));
}

TEST_F(BatchRunnerFake, AQueryThatCannotReachTheSchedulerConcludesNothing) {
  FakeScheduler sched;
  sched.failing_queries = 3;
  const BatchSummary s = run(make_case(), sched);
  EXPECT_EQ(s.ok, 3);  // the follower asked again until it could
  EXPECT_GE(sched.queries, 3 + 3);
  EXPECT_THAT(out_.str(), HasSubstr("scheduler query failed (slurm_load_jobs error"));
}

TEST_F(BatchRunnerFake, AJobThatLeavesTheQueueWithoutRunningIsLost) {
  FakeScheduler sched;
  sched.vanish = {"100_1"};
  const BatchSummary s = run(make_case(), sched);
  EXPECT_EQ(s.ok, 2);
  EXPECT_EQ(s.failed, 1);
  const auto runs = stored();
  EXPECT_EQ(runs[1].status, run_status::lost);
  EXPECT_THAT(runs[1].reason, HasSubstr("job 100_1 left the scheduler's queue without starting"));
}

TEST_F(BatchRunnerFake, AScriptThatExitsNonZeroIsFailedWithItsExitCode) {
  FakeScheduler sched;
  const CaseSpec spec = parse_case(
      "case: fake\ncommand: 'echo \"lm loss: 1.0\"; exit 3'\nparams:\n  x: [1, 2]\n"
      "metrics:\n  loss: 'lm loss: ([0-9.]+)'\n",
      (dir_ / "fake.yaml").string(), dir_.string());
  const BatchSummary s = run(spec, sched);
  EXPECT_EQ(s.failed, 2);
  for (const auto& r : stored()) {
    EXPECT_EQ(r.status, run_status::failed);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.scheduler_state, "FAILED");
  }
}

TEST_F(BatchRunnerFake, ATransientFailureIsSubmittedAgainAsAJobOfItsOwn) {
  FakeScheduler sched;
  sched.end_state = {{"100_2", "NODE_FAIL"}};
  const BatchSummary s = run(make_case("retries: 1\n"), sched);
  EXPECT_EQ(s.retried, 1);
  EXPECT_EQ(s.ok, 3);
  EXPECT_EQ(s.failed, 0);
  ASSERT_EQ(sched.submitted_scripts.size(), 2u);  // the array, then the retry alone
  const auto runs = stored();
  EXPECT_EQ(runs[2].status, run_status::ok);
  EXPECT_EQ(runs[2].attempt, 2);
  EXPECT_EQ(runs[2].job_id, "101");
}

TEST_F(BatchRunnerFake, ARunAlreadyOkIsNotSubmittedAgain) {
  FakeScheduler first;
  run(make_case(), first);
  FakeScheduler second;
  const BatchSummary s = run(make_case(), second);
  EXPECT_EQ(s.reused, 3);
  EXPECT_TRUE(second.submitted_scripts.empty());
  EXPECT_EQ(second.queries, 0);
}

// The follower's pace on aerun's own intervals: a job that stays pending is asked about after
// 1.5 s, then each interval half again as long up to 30 s (squeue once, not a storm), for as long
// as aerun follows it: an hour of the virtual clock here, in milliseconds.
TEST_F(BatchRunnerFake, AJobPendingForAnHourIsAskedAboutLessOftenUpToEveryThirtySeconds) {
  FakeScheduler sched;
  sched.stuck = {"100_0", "100_1", "100_2"};
  const BatchSummary s = run(make_case(), sched, /*wait=*/true, /*max_wait_s=*/3600);
  EXPECT_EQ(s.outstanding, 3);
  EXPECT_EQ(s.exit_status(/*waited=*/true), 1);
  // Asked at 0, 1.5, 3.75, 7.125, 12.19, 19.78, 31.17, 48.26, 73.89 s, then every 30 s until
  // the hour has passed (at 73.89 + 118 * 30 = 3613.89 s): 9 + 118 questions.
  EXPECT_EQ(sched.queries, 127);
  EXPECT_NEAR(clock_.now(), 3613.89, 0.01);
  for (const auto& r : stored()) EXPECT_EQ(r.status, run_status::pending);
}

// A cancelled array (scancel, an admin, a reservation's end) is no result but an accident
// (docs/case-format.md: `cancelled` is transient): its runs end `cancelled`, a later invocation
// submits them again, and with `retries:` each goes out again at once as a job of its own.
TEST_F(BatchRunnerFake, ACancelledArrayIsRunAgainAsTransientFailuresAre) {
  FakeScheduler sched;
  sched.end_state = {{"100_0", "CANCELLED"}, {"100_1", "CANCELLED"}, {"100_2", "CANCELLED"}};
  BatchSummary s = run(make_case(), sched);
  EXPECT_EQ(s.failed, 3);
  EXPECT_EQ(s.exit_status(/*waited=*/true), 1);
  for (const auto& r : stored()) {
    EXPECT_EQ(r.status, run_status::cancelled);
    EXPECT_EQ(r.scheduler_state, "CANCELLED");
  }
  FakeScheduler again;
  s = run(make_case(), again);
  EXPECT_EQ(s.kept + s.reused, 0);
  EXPECT_EQ(s.ok, 3);
  for (const auto& r : stored()) EXPECT_EQ(r.attempt, 2);

  FakeScheduler retrying;
  retrying.end_state = {{"100_0", "CANCELLED"}, {"100_1", "CANCELLED"}, {"100_2", "CANCELLED"}};
  s = run(parse_case("case: retried\ncommand: 'echo {i}'\nparams:\n  i: [1, 2, 3]\nretries: 1\n",
                     (dir_ / "retried.yaml").string(), dir_.string()),
          retrying);
  EXPECT_EQ(s.retried, 3);
  EXPECT_EQ(s.ok, 3);
  EXPECT_EQ(s.failed, 0);
  EXPECT_EQ(retrying.submitted_scripts.size(), 4u);  // the array, then each run alone
}

// A run a live local aerun holds (its claim: pid, start time, this host) is left to it and the
// command says so in its exit status; a run whose aerun is gone (its claim stale) is submitted.
TEST_F(BatchRunnerFake, ARunALiveAerunHoldsIsLeftToItAndOneWhoseAerunDiedIsSubmitted) {
  const CaseSpec spec = make_case();
  std::vector<PlannedRun> plan;
  plan_runs(spec, nullptr, [&](const PlannedRun& p) {
    plan.push_back(p);
    return true;
  });
  const pid_t live = fork();
  if (live == 0) {
    pause();
    _exit(0);
  }
  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  const long long dead_start = process_start_ticks(dead);
  waitpid(dead, nullptr, 0);
  for (const auto& [index, pid, start] :
       {std::tuple{0, live, process_start_ticks(live)}, std::tuple{1, dead, dead_start}}) {
    RunRecord r = new_run_record(spec, plan[index], self_identity().host, "");
    r.status = run_status::running;
    r.runner_pid = pid;
    r.runner_start = start;
    store_->begin_run(r);
  }
  FakeScheduler sched;
  const BatchSummary s = run(spec, sched);
  const auto runs = stored();
  kill(live, SIGKILL);
  waitpid(live, nullptr, 0);
  EXPECT_EQ(s.busy, 1);
  EXPECT_EQ(s.submitted, 2);
  EXPECT_EQ(s.ok, 2);
  EXPECT_EQ(s.exit_status(/*waited=*/true), 1);
  EXPECT_EQ(runs[0].status, run_status::running);
  EXPECT_EQ(runs[0].runner_pid, live);
  EXPECT_EQ(runs[1].status, run_status::ok);
  EXPECT_EQ(runs[2].status, run_status::ok);
}

}  // namespace
}  // namespace aerun
