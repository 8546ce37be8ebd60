// The local run loop (CaseRunner) on a fake executor, as ninja tests its Builder: commands scripted
// on a virtual clock, a real store file, real signals to aerun. Claims, reuse, the failure policy,
// retries, the timeout, both watchdogs, stop signals, a busy store and a claim taken over, each in
// milliseconds.
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "aerun/case/case_loader.hpp"
#include "aerun/run/case_runner.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/run/signal_watch.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/process_identity.hpp"
#include "fake_executor.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using testing::FakeExecutor;
using testing::FakeScript;
using ::testing::HasSubstr;
using ::testing::Pair;
using testing::steps;

// A signal sent t seconds after the fake began.
auto At(double t, int sig) {
  return Pair(::testing::DoubleNear(t, 1e-6), sig);
}

// Points n = 1, 2, 3 run `train N`; a step line is progress, `step 1` the first step.
const char* kCase = R"yaml(case: t
params: {n: [1, 2, 3]}
command: train {n}
metrics:
  step: {regex: 'step (\d+)', progress: true}
startup: 'step 1'
)yaml";

class RunLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/aerun-loop-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    db_ = (dir_ / "results/aerun.db").string();
    store_ = std::make_unique<Store>(db_);
    fake_.default_script(steps(1, 1.0));
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  // The case's planned runs, keys and all (extra: YAML lines added to kCase).
  std::vector<PlannedRun> plan(const std::string& extra = "") {
    spec_ = std::make_unique<CaseSpec>(
        parse_case(std::string(kCase) + extra, (dir_ / "c.yaml").string(), dir_.string()));
    std::vector<PlannedRun> out;
    plan_runs(*spec_, nullptr, [&](const PlannedRun& p) {
      out.push_back(p);
      return true;
    });
    return out;
  }

  // Runs the case as `aerun case` would, on the fake.
  RunSummary run(const std::string& extra = "", RunnerOptions o = {}) {
    const auto planned = plan(extra);
    o.logs_dir = (dir_ / "logs").string();
    out_.str("");
    return CaseRunner(*spec_, *store_, o, out_, fake_).run(planned);
  }

  // The stored run of point n.
  RunRecord stored(int n) {
    for (auto& r : store_->list(RunFilter::of_case("t")))
      for (const auto& [name, value] : r.params)
        if (name == "n" && value.text() == std::to_string(n)) return r;
    ADD_FAILURE() << "no stored run for n=" << n;
    return {};
  }
  std::string status(int n) {
    const RunRecord r = stored(n);
    return r.status + " | " + r.reason;
  }
  // How many times `train N` was started.
  int starts_of(int n) {
    int k = 0;
    for (const auto& s : fake_.starts()) k += s->command == "train " + std::to_string(n);
    return k;
  }
  std::vector<std::pair<double, int>> signals_of(int n) {
    for (const auto& s : fake_.starts())
      if (s->command == "train " + std::to_string(n)) return s->signals;
    return {};
  }
  // A raw connection to the store file (another process's view).
  void sql(const std::string& statement) {
    if (!raw_) {
      ASSERT_EQ(sqlite3_open(db_.c_str(), &raw_), SQLITE_OK);
    }
    char* err = nullptr;
    ASSERT_EQ(sqlite3_exec(raw_, statement.c_str(), nullptr, nullptr, &err), SQLITE_OK) << err;
  }
  ~RunLoopTest() override {
    if (raw_) sqlite3_close(raw_);
  }

  fs::path dir_;
  std::string db_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<CaseSpec> spec_;
  FakeExecutor fake_;
  std::ostringstream out_;
  sqlite3* raw_ = nullptr;
};

TEST_F(RunLoopTest, EachRunIsStartedWithItsIdentityAndStoredWithItsTimesAndStatus) {
  fake_.script("train 1", steps(3, 1.0));
  fake_.script("train 2", [] {
    FakeScript s = steps(2, 1.0);
    s.exit_code = 1;
    return s;
  }());
  fake_.script("train 3", steps(1, 0.5));
  const RunSummary sum = run();
  EXPECT_EQ(sum.ok, 2);
  EXPECT_EQ(sum.failed, 1);
  EXPECT_EQ(sum.exit_status(), 1);
  EXPECT_THAT(status(1), "ok | ");
  EXPECT_THAT(status(2), HasSubstr("failed | "));
  const RunRecord r = stored(1);
  EXPECT_NEAR(*r.wall_s, 3.1, 1e-6);     // its last line at 3 s, its exit 0.1 s later
  EXPECT_NEAR(*r.startup_s, 1.0, 1e-6);  // `step 1` at 1 s
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.metrics.size(), 1u);
  std::ifstream log(r.log_path);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(log), {}),
            "step 1 loss 2.9\nstep 2 loss 2.8\nstep 3 loss 2.7\n");
  const auto& first = *fake_.starts().front();
  EXPECT_EQ(first.env_var("AERUN_CASE"), "t");
  EXPECT_EQ(first.env_var("AERUN_ATTEMPT"), "1");
  EXPECT_EQ(first.env_var("AERUN_RUN_KEY"), r.key);
  EXPECT_EQ(first.env_var("PYTHONUNBUFFERED"), "1");
}

TEST_F(RunLoopTest, NoMoreRunsRunAtOnceThanJobs) {
  for (int n = 1; n <= 3; ++n) fake_.script("train " + std::to_string(n), steps(1, 10.0));
  RunnerOptions two;
  two.jobs = 2;
  EXPECT_EQ(run("", two).ok, 3);
  EXPECT_EQ(fake_.most_at_once(), 2);
  EXPECT_DOUBLE_EQ(fake_.starts()[2]->started, fake_.starts()[0]->ended);  // a slot came free
}

TEST_F(RunLoopTest, AnOkRunIsReusedAndForceRunsItAgain) {
  run();
  ASSERT_EQ(fake_.starts().size(), 3u);
  const RunSummary again = run();
  EXPECT_EQ(again.reused, 3);
  EXPECT_EQ(fake_.starts().size(), 3u);
  RunnerOptions force;
  force.force = true;
  EXPECT_EQ(run("", force).ok, 3);
  EXPECT_EQ(fake_.starts().size(), 6u);
  EXPECT_EQ(stored(1).attempt, 2);
}

TEST_F(RunLoopTest, AFailureIsKeptAsAResultUntilRerunFailed) {
  FakeScript fails;
  fails.exit_code = 2;
  fake_.script("train 2", fails);
  run();
  const RunSummary kept = run();
  EXPECT_EQ(kept.kept, 1);
  EXPECT_EQ(kept.reused, 2);
  EXPECT_EQ(kept.exit_status(), 1);  // a kept failure still fails the command
  EXPECT_EQ(starts_of(2), 1);
  EXPECT_THAT(out_.str(), HasSubstr("kept 1 earlier result(s) (1 failed)"));
  RunnerOptions rerun;
  rerun.rerun_failed = true;
  run("", rerun);
  EXPECT_EQ(starts_of(2), 2);
  EXPECT_EQ(starts_of(1), 1);
}

TEST_F(RunLoopTest, RetriesRunAFailureAgainUntilItSucceedsOrTheyAreUsedUp) {
  FakeScript fails = steps(1, 1.0);
  fails.exit_code = 1;
  fake_.script("train 1", fails);
  fake_.script("train 1", fails);
  fake_.script("train 1", steps(1, 1.0));
  const RunSummary sum = run("retries: {count: 2, on: [failed]}\n");
  EXPECT_EQ(sum.ok, 3);
  EXPECT_EQ(sum.failed, 0);
  ASSERT_EQ(starts_of(1), 3);
  std::vector<std::string> attempts;
  for (const auto& s : fake_.starts())
    if (s->command == "train 1") attempts.push_back(s->env_var("AERUN_ATTEMPT"));
  EXPECT_THAT(attempts, ElementsAre("1", "2", "3"));
  EXPECT_EQ(stored(1).attempt, 3);
  EXPECT_EQ(stored(1).status, "ok");
  // The retry goes first: before point 2 starts.
  EXPECT_EQ(fake_.starts()[3]->command, "train 2");
}

TEST_F(RunLoopTest, RetriesUsedUpLeaveTheLastFailure) {
  FakeScript fails;
  fails.exit_code = 1;
  fake_.script("train 1", fails);
  const RunSummary sum = run("retries: {count: 1, on: [failed]}\n");
  EXPECT_EQ(starts_of(1), 2);
  EXPECT_EQ(sum.failed, 1);
  EXPECT_EQ(stored(1).attempt, 2);
}

TEST_F(RunLoopTest, ATimeoutSendsSigtermThenSigkillAfterTheGrace) {
  FakeScript stubborn = steps(1, 1.0);
  stubborn.exit_at = 1000;
  stubborn.ignores_sigterm = true;
  fake_.script("train 1", stubborn);
  RunnerOptions o;
  o.kill_grace_s = 5;
  run("timeout: 10s\n", o);
  EXPECT_THAT(signals_of(1), ElementsAre(At(10.0, SIGTERM), At(15.0, SIGKILL)));
  EXPECT_EQ(status(1), "timeout | timeout after 10 s");
  EXPECT_EQ(stored(1).signal, SIGKILL);
}

TEST_F(RunLoopTest, ARunThatTakesSigtermGetsNoSigkill) {
  FakeScript slow = steps(1, 1.0);
  slow.exit_at = 1000;
  fake_.script("train 1", slow);
  run("timeout: 10s\n");
  EXPECT_THAT(signals_of(1), ElementsAre(At(10.0, SIGTERM)));
  EXPECT_EQ(status(1), "timeout | timeout after 10 s");
}

TEST_F(RunLoopTest, AStalledRunIsStoppedStallSecondsAfterItsLastProgress) {
  FakeScript hangs = steps(3, 1.0);
  hangs.exit_at = 1000;  // a collective that never returns
  fake_.script("train 1", hangs);
  fake_.script("train 2", steps(20, 4.0));  // slow but steady: never stalled
  run("stall: 5s\n");
  EXPECT_THAT(signals_of(1), ElementsAre(At(8.0, SIGTERM)));
  EXPECT_EQ(status(1), "stalled | no progress for 5 s after line 3: step 3 loss 2.7");
  EXPECT_EQ(status(2), "ok | ");
}

TEST_F(RunLoopTest, ARunWithoutAFirstStepIsStoppedAtTheFirstStepLimit) {
  FakeScript loads;
  loads.output = {{1.0, "loading the checkpoint\n"}};
  loads.exit_at = 1000;
  fake_.script("train 1", loads);
  FakeScript late = steps(2, 1.0);  // its first step at 3 s: in time
  late.output.insert(late.output.begin(), {0.5, "loading\n"});
  for (auto& [at, line] : late.output) at += at > 0.5 ? 2 : 0;
  late.exit_at += 2;
  fake_.script("train 2", late);
  run("first_step: 4s\n");
  EXPECT_THAT(signals_of(1), ElementsAre(At(4.0, SIGTERM)));
  EXPECT_EQ(status(1), "startup_timeout | no first step within 4 s of the start");
  EXPECT_EQ(status(2), "ok | ");
}

class RunLoopStopTest : public RunLoopTest, public ::testing::WithParamInterface<int> {};

TEST_P(RunLoopStopTest, AStopSignalStopsTheRunningRunAndStartsNoOther) {
  const int sig = GetParam();
  for (int n = 1; n <= 3; ++n) fake_.script("train " + std::to_string(n), steps(1, 10.0));
  fake_.at(5.0, [sig] { ::raise(sig); });
  const RunSummary sum = run();
  EXPECT_EQ(sum.stop_signal, sig);
  EXPECT_EQ(sum.interrupted, 1);
  EXPECT_EQ(sum.not_started, 2);
  EXPECT_EQ(sum.exit_status(), 128 + sig);
  EXPECT_EQ(fake_.starts().size(), 1u);
  EXPECT_THAT(signals_of(1), ElementsAre(At(5.0, SIGTERM)));
  EXPECT_EQ(status(1), "interrupted | stopped by " + signal_name(sig));
}

INSTANTIATE_TEST_SUITE_P(EachStopSignal, RunLoopStopTest,
                         ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const auto& info) { return signal_name(info.param).substr(3); });

// Another live aerun (here: this test's parent process, by the store's rows) holds point 2.
class RunLoopClaimTest : public RunLoopTest {
 protected:
  RunRecord claim_elsewhere(int n) {
    const auto planned = plan();
    const PlannedRun& p = planned[static_cast<size_t>(n - 1)];
    RunRecord r = new_run_record(*spec_, p, host_name(), "");
    r.runner_pid = ::getppid();
    r.runner_start = process_start_ticks(r.runner_pid);
    r.status = "running";
    other_ = std::make_unique<Store>(db_);
    const Store::Claim c = other_->claim_run(r, [](const RunRecord&) { return false; });
    EXPECT_EQ(c.outcome, Store::Claim::Outcome::Claimed);
    r.id = c.id;
    return r;
  }
  std::unique_ptr<Store> other_;
};

TEST_F(RunLoopClaimTest, ARunAnotherAerunHoldsIsWaitedForAndItsResultKept) {
  RunRecord theirs = claim_elsewhere(2);
  fake_.at(7.0, [&] {
    theirs.status = "ok";
    theirs.exit_code = 0;
    EXPECT_TRUE(other_->finish_run(theirs));
  });
  const RunSummary sum = run();
  EXPECT_EQ(sum.ok, 2);
  EXPECT_EQ(sum.reused, 1);
  EXPECT_EQ(starts_of(2), 0);
  EXPECT_GE(fake_.now(), 7.0);
  EXPECT_THAT(out_.str(), HasSubstr("is being run by aerun process"));
  EXPECT_EQ(sum.exit_status(), 0);
}

TEST_F(RunLoopClaimTest, AStopWhileWaitingLeavesTheRunToItsOwner) {
  claim_elsewhere(2);
  fake_.at(7.0, [] { ::raise(SIGINT); });
  const RunSummary sum = run();
  EXPECT_EQ(sum.busy, 1);
  EXPECT_EQ(starts_of(2), 0);
  EXPECT_EQ(sum.exit_status(), 128 + SIGINT);
}

// A run whose claim another aerun took over (this one looked dead to it) is stopped at the next
// heartbeat, and its result is not written over the other's.
TEST_F(RunLoopTest, ARunWhoseClaimWasTakenOverIsStoppedAndNotWritten) {
  FakeScript long_run = steps(1, 1.0);
  long_run.exit_at = 1000;
  fake_.script("train 1", long_run);
  fake_.at(40.0, [&] {
    const int pid = ::getppid();
    sql(fmt::format("UPDATE runs SET runner_pid={}, runner_start={} WHERE status='running'", pid,
                    process_start_ticks(pid)));
  });
  run();
  const auto sigs = signals_of(1);
  ASSERT_EQ(sigs.size(), 1u);
  EXPECT_EQ(sigs[0].second, SIGTERM);
  EXPECT_LE(sigs[0].first, 40.0 + Store::kHeartbeatS);
  EXPECT_THAT(out_.str(), HasSubstr("another aerun took it over"));
  EXPECT_EQ(stored(1).status, "running");  // the other's claim, untouched
}

// Another process holds the store's write lock while a run ends: its result waits, the loop goes
// on (without spinning), and it is written once the lock is gone.
TEST_F(RunLoopTest, AResultTheStoreCannotTakeYetIsWrittenOnceItIsFree) {
  fake_.script("train 1", steps(4, 1.0));
  fake_.at(3.5, [&] { sql("BEGIN IMMEDIATE"); });
  fake_.at(6.0, [&] { sql("COMMIT"); });
  const RunSummary sum = run();
  EXPECT_EQ(sum.ok, 3);
  EXPECT_THAT(out_.str(), HasSubstr("the store is locked by another process"));
  EXPECT_EQ(status(1), "ok | ");
  EXPECT_NEAR(*stored(1).wall_s, 4.1, 1e-6);  // its own times, not the wait's
  EXPECT_GE(fake_.now(), 6.0);
}

// A store that stays locked past the limit (600 s by default; 1 s here) stops aerun with a
// SystemError — exit 4, the environment failed, as README and docs/store.md say — naming the
// run, its status and its log, so the result is not lost to the person who reads it.
TEST_F(RunLoopTest, AStoreLockedPastTheLimitStopsWithAnEnvironmentErrorNamingTheLog) {
  fake_.script("train 1", steps(2, 1.0));
  fake_.at(1.5, [&] { sql("BEGIN IMMEDIATE"); });
  RunnerOptions o;
  o.store_busy_limit_s = 1;
  try {
    run("", o);
    ADD_FAILURE() << "the loop went on with the store locked for good";
  } catch (const StoreBusy&) {
    ADD_FAILURE() << "a StoreBusy escaped: it is caught and retried, the limit is a SystemError";
  } catch (const SystemError& e) {
    EXPECT_THAT(e.what(), HasSubstr("the store stayed locked for over 1 s"));
    EXPECT_THAT(e.what(), HasSubstr("its result (ok) is in its log " + (dir_ / "logs").string()));
  }
  EXPECT_GE(fake_.now(), 1.5 + 1);
  sql("COMMIT");
}

// A stop signal starts no more runs, but a finished run's result is not dropped for it.
TEST_F(RunLoopTest, AStopStillWritesAResultTheStoreCouldNotTakeYet) {
  fake_.script("train 1", steps(4, 1.0));
  fake_.at(3.5, [&] { sql("BEGIN IMMEDIATE"); });
  fake_.at(4.5, [] { ::raise(SIGTERM); });
  fake_.at(6.0, [&] { sql("COMMIT"); });
  const RunSummary sum = run();
  EXPECT_EQ(sum.stop_signal, SIGTERM);
  EXPECT_EQ(status(1), "ok | ");
  EXPECT_EQ(fake_.starts().size(), 1u);
}

TEST_F(RunLoopTest, ACommandThatCannotStartFailsAndTheOthersRun) {
  FakeScript broken;
  broken.spawn_error = "cannot run /bin/bash: No such file or directory";
  fake_.script("train 1", broken);
  const RunSummary sum = run();
  EXPECT_EQ(status(1), "failed | cannot run /bin/bash: No such file or directory");
  EXPECT_EQ(sum.ok, 2);
}

TEST_F(RunLoopTest, OutputHeldAfterTheCommandEndedIsCutTwoSecondsLater) {
  FakeScript leaves_a_child = steps(2, 1.0);
  leaves_a_child.holds_output_s = -1;  // until killed
  fake_.script("train 1", leaves_a_child);
  run();
  EXPECT_THAT(signals_of(1), ElementsAre(At(4.1, SIGKILL)));
  EXPECT_EQ(status(1), "ok | ");
  // The run's time ends when the command did, not after aerun's wait for its output (issue 40).
  EXPECT_NEAR(*stored(1).wall_s, 2.1, 1e-6);
}

}  // namespace
}  // namespace aerun
