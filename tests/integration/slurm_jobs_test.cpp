// A sweep submitted to a real Slurm (sbatch/squeue/scancel on a local test cluster): job arrays,
// one job per run, --no-wait + collect, cancel, and the faults (rejected submission, sbatch
// missing, controller unreachable). Checked through the store with SQL.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "slurm_cluster.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

const char* kSweep = R"(case: sweep
params:
  n: [1, 2, 3]
command: echo "step 1 n={n}"; sleep 1; echo "loss 0.{n}"; test {n} != 3
startup: {first_step: 'step 1'}
metrics:
  loss: {regex: 'loss ([0-9.]+)'}
resources:
  nodes: 1
  tasks_per_node: 1
  walltime: 5m
  partition: debug
)";

class SlurmJobs : public SlurmTest {};

}  // namespace

TEST_F(SlurmJobs, ASweepRunsAsOneJobArrayAndEachTaskIsCollected) {
  write_file(dir_ / "c.yaml", kSweep);
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  EXPECT_EQ(r.code, 1) << r.err;  // n=3 exits 1
  EXPECT_THAT(r.err, HasSubstr("(3 runs, an array)"));
  const auto rows = sql(db(),
                        "SELECT p.value, r.status, r.scheduler, r.array_index, r.scheduler_state, "
                        "r.exit_code, m.value FROM runs r JOIN run_params p ON p.run_id=r.id "
                        "LEFT JOIN metrics m ON m.run_id=r.id AND m.name='loss' ORDER BY p.value");
  ASSERT_EQ(rows.size(), 3u);
  const std::vector<std::vector<std::string>> want{
      {"1", "ok", "slurm", "0", "COMPLETED", "0", "0.1"},
      {"2", "ok", "slurm", "1", "COMPLETED", "0", "0.2"},
      {"3", "failed", "slurm", "2", "FAILED", "1", "0.3"}};
  EXPECT_EQ(rows, want);
  // One array: every run's job id is <base>_<index> of the same base.
  const auto ids = sql(db(), "SELECT job_id, array_index FROM runs ORDER BY array_index");
  const std::string base = ids[0][0].substr(0, ids[0][0].find('_'));
  for (const auto& row : ids) EXPECT_EQ(row[0], base + "_" + row[1]);
  // Times from the job's own stamps: queued before starting, startup within the run, wall >= 1 s.
  EXPECT_EQ(sql1(db(),
                 "SELECT count(*) FROM runs WHERE submit_time <= job_start_time AND "
                 "queue_wait_s >= 0 AND queue_wait_s < 60 AND startup_s >= 0 AND "
                 "startup_s < wall_s AND wall_s >= 1 AND launch_time = job_start_time"),
            "3");
  EXPECT_THAT(sql1(db(), "SELECT reason FROM runs WHERE status='failed'"),
              HasSubstr("exit code 1"));
  // The script exists under the logs, named after the job.
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE log_size > 0 AND log_sha256 != ''"), "3");
  // `aerun show` and `aerun runs` tell the job behind each run.
  const auto shown =
      aerun({"show", sql1(db(), "SELECT key FROM runs ORDER BY array_index LIMIT 1")});
  EXPECT_THAT(shown.out, HasSubstr("slurm"));
  EXPECT_THAT(shown.out, HasSubstr(base + "_"));
  EXPECT_THAT(shown.out, HasSubstr("queue wait"));
  EXPECT_THAT(aerun({"runs", "--format", "csv"}).out, HasSubstr("," + base + "_0,"));
}

TEST_F(SlurmJobs, WithoutArraysEachRunIsItsOwnJobUnderTheQueueCap) {
  std::string yaml = kSweep;
  yaml += "  array: false\n";
  write_file(dir_ / "c.yaml", yaml);
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm", "--max-queued", "2", "--only",
                        "n=1", "--only", "n=2"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(
      sql1(db(),
           "SELECT count(DISTINCT job_id) FROM runs WHERE status='ok' AND array_index IS NULL"),
      "2");
  // Done runs are reused, not submitted again.
  const auto again = aerun({"case", "c.yaml", "--scheduler", "slurm", "--only", "n=1"});
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.err, ::testing::Not(HasSubstr("submitted job")));
}

TEST_F(SlurmJobs, NoWaitSubmitsAndReturnsThenCollectGathersTheFinishedJobs) {
  write_file(dir_ / "c.yaml", kSweep);
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait", "--only", "n=1"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(sql1(db(), "SELECT status FROM runs"), ::testing::AnyOf("pending", "running"));
  EXPECT_NE(sql1(db(), "SELECT job_id FROM runs"), "");
  const auto c = aerun({"collect", "sweep", "--wait", "--poll", "0.5"});
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(sql1(db(), "SELECT status || ' ' || scheduler_state FROM runs"), "ok COMPLETED");
  EXPECT_EQ(sql1(db(), "SELECT m.value FROM metrics m"), "0.1");
}

TEST_F(SlurmJobs, CancelStopsTheCasesJobsAndStoresThemCancelled) {
  write_file(dir_ / "c.yaml",
             "case: slow\nparams: {i: [1, 2]}\ncommand: echo started {i}; sleep 300\n"
             "resources: {walltime: 10m}\n");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait"}).code, 0);
  // Running, and each command's first line written: squeue says RUNNING a moment before the
  // script's output reaches its log on a loaded machine.
  const auto both_started = [&] {
    for (const auto& row : sql(db(), "SELECT log_path FROM runs"))
      if (read_file(row[0]).find("started") == std::string::npos) return false;
    return true;
  };
  ASSERT_TRUE(eventually(
      [&] {
        return aerun({"collect", "slow"}).code == 0 &&
               sql1(db(), "SELECT count(*) FROM runs WHERE status='running'") == "2" &&
               both_started();
      },
      30));
  const auto c = aerun({"cancel", "slow"});
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(sql1(db(), "SELECT group_concat(status || '/' || scheduler_state) FROM runs"),
            "cancelled/CANCELLED,cancelled/CANCELLED");
  EXPECT_THAT(read_file(sql1(db(), "SELECT log_path FROM runs LIMIT 1")), HasSubstr("started"));
}

TEST_F(SlurmJobs, ARejectedSubmissionCarriesSlurmsMessageAndMarksTheRunsSubmitFailed) {
  write_file(dir_ / "c.yaml", "case: big\ncommand: echo hi\nresources: {nodes: 3}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("Node count specification invalid"));
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "submit_failed");
  EXPECT_THAT(sql1(db(), "SELECT reason FROM runs"), HasSubstr("Node count specification invalid"));
}

TEST_F(SlurmJobs, MissingSbatchIsReportedAndNothingRuns) {
  write_file(dir_ / "c.yaml", "case: nos\ncommand: echo hi\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"}, "PATH=/nonexistent");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("sbatch: not found in PATH"));
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "submit_failed");
}

TEST_F(SlurmJobs, AnUnreachableControllerNeverFinishesARunAndCollectRecoversLater) {
  write_file(dir_ / "c.yaml", "case: ctl\ncommand: echo hi\n");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait"}).code, 0);
  SlurmCluster::stop_controller();
  const auto down = aerun({"collect", "ctl"});
  SlurmCluster::start_controller();
  EXPECT_EQ(down.code, 2);
  EXPECT_THAT(down.err, HasSubstr("squeue failed"));
  EXPECT_THAT(sql1(db(), "SELECT status FROM runs"), ::testing::AnyOf("pending", "running"));
  const auto up = aerun({"collect", "ctl", "--wait", "--poll", "0.5"});
  EXPECT_EQ(up.code, 0) << up.err;
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "ok");
}

// The nightly cycle of docs/nightly.md on the real test Slurm: each night submitted with
// --no-wait under its label, collected later; night 2's demo workload slowed on purpose through a
// parameter of the workload (--slowdown 3: each step takes three times as long).
TEST_F(SlurmJobs, ANightlyCycleWithNoWaitAndCollectFindsTheSlowedNight) {
  write_file(dir_ / "c.yaml", R"yaml(case: nightly
params: {hidden: [128]}
repeat: 3
command: '"$AERUN_DEMO_TRAIN" --hidden {hidden} --batch 64 --iters 20 --log-interval 5 --slowdown ${SLOWDOWN:-1}'
presets: [megatron]
resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}
)yaml");
  const std::string demo = std::string("AERUN_DEMO_TRAIN=") + AERUN_DEMO_TRAIN;
  for (const char* night : {"night1", "night2"}) {
    const std::string slow = std::string(night) == "night2" ? " SLOWDOWN=3" : "";
    auto r = aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait", "--label", night},
                   demo + slow);
    ASSERT_EQ(r.code, 0) << r.err;
    r = aerun({"collect", "--wait"});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM run_history WHERE status='ok'"), "3");
  EXPECT_EQ(sql1(db(), "SELECT group_concat(label) FROM sessions WHERE fresh=1"), "night1,night2");
  const auto r = aerun({"regress", "--metric", "iter_ms", "--junit", "regress.xml"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("### aerun regress: night2 against night1 (previous)"));
  EXPECT_THAT(r.out, HasSubstr("| nightly | hidden=128 | iter_ms | "));
  EXPECT_THAT(r.out, HasSubstr("| **regressed** |"));
  EXPECT_THAT(read_file(dir_ / "regress.xml"), HasSubstr("<failure type=\"regressed\""));
}

// The watchdogs run inside the job (issue 18): a run that hangs after its third step is stopped
// by the job's own wrapper, with --no-wait too, and collected as stalled.
TEST_F(SlurmJobs, AHungJobIsStoppedByItsOwnWatchdogAndCollectedAsStalled) {
  write_file(dir_ / "c.yaml", R"yaml(case: hang
params: {x: [1]}
command: for i in 1 2 3; do echo "step $i"; sleep 0.2; done; sleep 120
metrics:
  step: {regex: 'step (\d+)', progress: true}
startup: 'step 1'
stall: 2s
resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}
)yaml");
  const auto t0 = std::chrono::steady_clock::now();
  auto r = aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = aerun({"collect", "--wait"});
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_LT(wall, 60) << "the job was not stopped by its watchdog (it sleeps 120 s)";
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "stalled");
  EXPECT_THAT(sql1(db(), "SELECT reason FROM runs"),
              HasSubstr("no progress for 2 s after line 3: step 3"));
  const std::string script = read_file(
      (dir_.path() / "results/logs/hang/jobs").string() + "/" +
      fs::directory_iterator(dir_.path() / "results/logs/hang/jobs")->path().filename().string());
  EXPECT_THAT(script, HasSubstr("stamp-output \"$AERUN_STAMPS\" 'step 1' --progress 'step (\\d+)' "
                                "--stall 2"));
}

// docs/reliability.md: slurmctld stopped and restarted while the jobs run. The follower keeps
// waiting through the outage and never reports a job finished that did not: each job writes its
// own marker when it really ends, and no run is final in the store before its marker exists.
TEST_F(SlurmJobs, ControllerStoppedAndRestartedWhileJobsRunFinishesNoJobEarly) {
  write_file(dir_ / "c.yaml",
             "case: outage\nparams: {x: [1, 2]}\ncommand: sleep 8 && touch done.{x}\n");
  aerun::ChildProcess::Options o;
  o.argv = {AERUN_BINARY, "case",          "c.yaml",          "--scheduler",
            "slurm",      "--no-progress", "--poll-interval", "0.5s..1s"};
  for (char** e = environ; *e; ++e) o.env.emplace_back(*e);
  o.env.push_back("SLURM_CONF=" + SlurmCluster::conf());
  o.cwd = dir_.path().string();
  aerun::ChildProcess follower(o);
  const auto final_runs = [&] {
    return sql1(db(), "SELECT count(*) FROM runs WHERE status NOT IN ('pending', 'running')") !=
           "0";
  };
  ASSERT_TRUE(eventually(
      [&] {
        return fs::exists(dir_ / "results/aerun.db") &&
               sql1(db(), "SELECT count(*) FROM runs WHERE status='running'") == "2";
      },
      60));
  SlurmCluster::stop_controller();
  int early = 0;
  for (int i = 0; i < 25; ++i) {  // 5 s without a controller
    const bool done = fs::exists(dir_ / "done.1") && fs::exists(dir_ / "done.2");
    if (!done && final_runs()) ++early;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  SlurmCluster::start_controller();
  // Until every marker exists, no run may be final.
  for (int i = 0; i < 300 && !(fs::exists(dir_ / "done.1") && fs::exists(dir_ / "done.2")); ++i) {
    for (const auto& row : sql(db(),
                               "SELECT p.value FROM runs r JOIN run_params p ON "
                               "p.run_id=r.id WHERE r.status NOT IN ('pending', "
                               "'running')"))
      if (!fs::exists(dir_ / ("done." + row[0]))) ++early;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_TRUE(eventually([&] { return follower.try_wait(); }, 120));
  EXPECT_EQ(early, 0) << "a run was reported finished before its job ended";
  ASSERT_TRUE(follower.exit().code.has_value());
  EXPECT_EQ(*follower.exit().code, 0);
  EXPECT_EQ(sql1(db(), "SELECT group_concat(status) FROM runs"), "ok,ok");
}

// Setup steps as Slurm jobs: the runs' array is submitted with --dependency=afterok on the build
// job; a failed build gets its runs cancelled by Slurm (--kill-on-invalid-dep), never run.
TEST_F(SlurmJobs, TheRunsArrayWaitsForItsBuildJobAndAFailedBuildCancelsIt) {
  write_file(dir_ / "c.yaml", R"(case: stepped
params: {method: [a, b], n: [1, 2]}
steps:
  build:
    depends_on: [method]
    command: 'sleep 2; if [ -e broken-{method} ]; then exit 2; fi; echo built-{method} > built-{method}.txt'
command: 'cat built-{method}.txt; echo n={n}'
resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}
)");
  auto r = aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = aerun({"collect", "stepped", "--wait"});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  // Each run read its build's file, written 2 s into the build job: it started after it.
  for (const auto& log : sql(db(), "SELECT log_path FROM runs WHERE case_name='stepped'"))
    EXPECT_THAT(read_file(log[0]), HasSubstr("built-"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "6");
  // Each run keeps the node list Slurm gave its job (per run: it can differ).
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE nodes=''"), "0");

  write_file(dir_ / "broken-a", "");
  write_file(dir_ / "broken-b", "");
  r = aerun({"case", "c.yaml", "--scheduler", "slurm", "--no-wait", "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = aerun({"collect", "stepped", "--wait"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(sql1(db(), "SELECT group_concat(DISTINCT status) FROM runs WHERE case_name='stepped'"),
            "cancelled");
  EXPECT_EQ(sql1(db(),
                 "SELECT count(*) FROM runs WHERE case_name='stepped.build' AND "
                 "status='failed'"),
            "2");
}

namespace {

// A cluster whose MaxArraySize is 4 (array indices 0..3), as a site with a low limit has it.
class SlurmSmallArrays : public SlurmTest {
 protected:
  static void SetUpTestSuite() {
    ::setenv("SLURM_TEST_EXTRA_CONF", "MaxArraySize=4", 1);
    SlurmTest::SetUpTestSuite();
    ::unsetenv("SLURM_TEST_EXTRA_CONF");
  }
};

}  // namespace

// Issue 29: a sweep of more runs than MaxArraySize was one `--array=0-N` that sbatch refused
// ("Invalid job array specification"), every run stored submit_failed. aerun reads the limit
// (`scontrol show config`) and cuts the sweep into arrays that fit: every run ends ok.
TEST_F(SlurmSmallArrays, ASweepLargerThanMaxArraySizeIsCutIntoArraysThatFit) {
  write_file(dir_ / "c.yaml", R"(case: wide
params:
  n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
command: echo "n={n}"
resources: {nodes: 1, walltime: 5m, partition: debug}
)");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("10 runs in 3 arrays of at most 4: this cluster's MaxArraySize = 4 "
                               "(scontrol show config)"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "10");
  // Three arrays of 4, 4 and 2 tasks: indices 0..3 at most, each (job, index) once.
  EXPECT_EQ(
      sql1(db(), "SELECT count(DISTINCT substr(job_id, 1, instr(job_id, '_') - 1)) FROM runs"),
      "3");
  EXPECT_EQ(sql1(db(), "SELECT max(array_index) FROM runs"), "3");
  EXPECT_EQ(sql1(db(), "SELECT count(DISTINCT job_id) FROM runs"), "10");
  for (const auto& row : sql(db(),
                             "SELECT p.value, r.log_path FROM runs r JOIN run_params p ON "
                             "p.run_id=r.id"))
    EXPECT_EQ(read_file(row[1]), "n=" + row[0] + "\n") << row[1];
}

// Under a cap on tasks at once (array_cap: 2) the cut arrays run one after another
// (--dependency=afterany on the part before): no task of the second starts before the first ended.
TEST_F(SlurmSmallArrays, UnderACapEachCutArrayStartsAfterTheOneBeforeItEnded) {
  write_file(dir_ / "c.yaml", R"(case: capped
params:
  n: [1, 2, 3, 4, 5, 6]
command: sleep 1; echo "n={n}"
resources: {nodes: 1, walltime: 5m, partition: debug, array_cap: 2}
)");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "slurm"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("6 runs in 2 arrays of at most 4"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "6");
  const auto parts = sql(db(),
                         "SELECT substr(job_id, 1, instr(job_id, '_') - 1) AS job, "
                         "min(job_start_time), max(end_time) FROM runs GROUP BY job ORDER BY job");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_GE(std::stod(parts[1][1]), std::stod(parts[0][2]) - 0.5)  // stamps of one host's clock
      << "the second array started before the first ended";
}
