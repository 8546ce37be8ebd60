// PBS Pro jobs through aerun, against the stand-in qsub/qstat/qdel of tests/fixtures/pbs (no PBS
// server exists in Debian; the stand-in checks the directives and prints `qstat -f -F json` as
// PBS Pro documents it). Arrays (-J), --no-wait + collect, qdel, a rejected queue, an
// unreachable server, a walltime kill.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

class PbsJobs : public ::testing::Test {
 protected:
  Result aerun(const std::vector<std::string>& args, const std::string& extra = "") {
    const std::string env =
        "PATH=" + aerun::shell_quote(std::string(AERUN_FIXTURES) + "/pbs:" + std::getenv("PATH")) +
        " PBS_STANDIN_DIR=" + aerun::shell_quote(dir_ / "pbs") + " " + extra;
    return run_aerun(dir_, args, env);
  }
  std::string db() const { return dir_ / "results/aerun.db"; }
  TempDir dir_;
};

const char* kSweep = R"(case: polaris
params:
  n: [1, 2, 3]
command: echo "step 1 n={n}"; echo "loss 0.{n}"; test {n} != 2
startup: {first_step: 'step 1'}
metrics:
  loss: {regex: 'loss ([0-9.]+)'}
resources:
  nodes: 2
  gpus_per_node: 4
  tasks_per_node: 4
  cpus_per_task: 8
  walltime: 1h
  queue: debug
  project: datascience
  filesystems: home:eagle
  place: scatter
)";

}  // namespace

TEST_F(PbsJobs, ASweepIsOneArrayJobWithPolarisDirectives) {
  write_file(dir_ / "c.yaml", kSweep);
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"});
  EXPECT_EQ(r.code, 1) << r.err;
  const auto rows =
      sql(db(),
          "SELECT p.value, r.status, r.job_id, r.scheduler_state, m.value FROM runs r "
          "JOIN run_params p ON p.run_id=r.id LEFT JOIN metrics m ON m.run_id=r.id "
          "ORDER BY p.value");
  const std::vector<std::vector<std::string>> want{{"1", "ok", "1[0].standin", "X", "0.1"},
                                                   {"2", "failed", "1[1].standin", "X", "0.2"},
                                                   {"3", "ok", "1[2].standin", "X", "0.3"}};
  EXPECT_EQ(rows, want);
  std::string script;  // the job script (beside it: its task table)
  for (const auto& e : fs::directory_iterator(dir_.path() / "results/logs/polaris/jobs"))
    if (e.path().extension() == ".pbs") script = read_file(e.path());
  EXPECT_THAT(script, HasSubstr("#PBS -l select=2:ncpus=32:ngpus=4:mpiprocs=4\n"));
  EXPECT_THAT(script,
              HasSubstr("#PBS -l walltime=01:00:00\n#PBS -l place=scatter\n"
                        "#PBS -l filesystems=home:eagle\n#PBS -A datascience\n#PBS -q debug\n"
                        "#PBS -J 0-2\n"));
  EXPECT_THAT(script, HasSubstr("PBS_ARRAY_INDEX=N bash THIS_SCRIPT"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE queue_wait_s >= 0 AND startup_s >= 0"),
            "3");
}

TEST_F(PbsJobs, ALinkPutAtTheCasesLogsFolderIsNotWrittenThrough) {
  // Issue 40: a batch case made only logs/<case>/jobs its own, creating logs/<case> by its path:
  // a link put at logs/<case> got the job scripts and task tables (and the jobs' logs).
  write_file(dir_ / "c.yaml", kSweep);
  fs::create_directories(dir_ / "results/logs");
  fs::create_directories(dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "results/logs/polaris");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"});
  EXPECT_EQ(r.code, 1) << r.err;  // the sweep's n=2 fails
  EXPECT_TRUE(fs::is_empty(dir_ / "elsewhere"));
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(dir_ / "results/logs/polaris")));
  EXPECT_FALSE(fs::is_empty(dir_ / "results/logs/polaris/jobs"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "2");
}

TEST_F(PbsJobs, NoWaitThenCollectAndCancel) {
  write_file(dir_ / "c.yaml",
             "case: q\nparams: {t: [0, 300]}\ncommand: echo hi; sleep {t}\n"
             "resources: {array: false, queue: debug}\n");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "pbs", "--no-wait"}).code, 0);
  ASSERT_TRUE(eventually(
      [&] {
        aerun({"collect", "q"});
        return sql1(db(), "SELECT group_concat(status, ',') FROM runs ORDER BY id") == "ok,running";
      },
      20));
  const auto c = aerun({"cancel", "q"});
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(sql1(db(), "SELECT status || ' ' || scheduler_state FROM runs WHERE status != 'ok'"),
            "cancelled F");
}

TEST_F(PbsJobs, AnUnknownQueueIsRejectedWithQsubsMessage) {
  write_file(dir_ / "c.yaml", "case: badq\ncommand: echo hi\nresources: {queue: nosuchq}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("qsub: Unknown queue"));
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "submit_failed");
}

TEST_F(PbsJobs, AnUnreachableServerLeavesRunsQueuedUntilItAnswers) {
  // The job waits for a file, so it cannot finish (and be collected) before the server goes down.
  const std::string release = dir_ / "release";
  write_file(dir_ / "c.yaml", "case: down\ncommand: for i in $(seq 600); do [ -e " +
                                  aerun::shell_quote(release) +
                                  " ] && break; sleep 0.1; done; echo hi\n");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "pbs", "--no-wait"}).code, 0);
  write_file(dir_ / "pbs/down", "");
  const auto down = aerun({"collect", "down"});
  EXPECT_EQ(down.code, 2);
  EXPECT_THAT(down.err, HasSubstr("cannot connect to server"));
  EXPECT_THAT(sql1(db(), "SELECT status FROM runs"), ::testing::AnyOf("pending", "running"));
  fs::remove(dir_ / "pbs/down");
  write_file(release, "");
  EXPECT_EQ(aerun({"collect", "down", "--wait", "--poll", "0.3"}).code, 0);
  EXPECT_EQ(sql1(db(), "SELECT status FROM runs"), "ok");
}

TEST_F(PbsJobs, AWalltimeKillIsATimeout) {
  write_file(dir_ / "c.yaml", "case: wt\ncommand: sleep 60\nresources: {walltime: 1m}\n");
  // The stand-in scales walltime by 1/30: the 1-minute limit strikes after 2 s.
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"}, "PBS_STANDIN_TIME_SCALE=0.033");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(sql1(db(), "SELECT status || ' ' || scheduler_reason FROM runs").substr(0, 27),
            "timeout Exit_status=-29; jo");
}

// OpenPBS after 23.06 answers `qstat -f -F json ID1 ID2 ...` with the first job only
// (openpbs#2672; the stand-in's PBS_STANDIN_JSON_BUGS=2672): the others are asked about alone,
// so none is ever taken for gone.
TEST_F(PbsJobs, JobsMissingFromAMultiIdAnswerAreAskedAloneNeverLost) {
  write_file(dir_ / "c.yaml",
             "case: first\nparams: {n: [1, 2, 3]}\ncommand: sleep 0.{n}; test {n} != 2\n"
             "resources: {array: false}\n");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"}, "PBS_STANDIN_JSON_BUGS=2672");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(sql1(db(),
                 "SELECT group_concat(status || ' ' || job_id, ',') FROM "
                 "(SELECT * FROM runs ORDER BY job_id)"),
            "ok 1.standin,failed 2.standin,ok 3.standin");
}

// Old PBS writers leave backslashes unescaped (Variable_List's `\,`, openpbs PR #2049; a
// `DOMAIN\user` owner, Azure/cyclecloud-pbspro#91): the JSON is repaired and the jobs collected.
TEST_F(PbsJobs, InvalidJsonEscapesAreRepaired) {
  write_file(dir_ / "c.yaml",
             "case: esc\nparams: {n: [1, 2]}\ncommand: echo {n}\nresources: {array: false}\n");
  const std::string path = std::string(AERUN_FIXTURES) + "/pbs:/opt/a,b:" + std::getenv("PATH");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"},
                       "PBS_STANDIN_JSON_BUGS=escapes USER=" + aerun::shell_quote("CORP\\aerun") +
                           " PATH=" + aerun::shell_quote(path));
  EXPECT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(sql1(db(), "SELECT group_concat(status, ',') FROM runs"), "ok,ok");
}

// JSON no repair can save (`"Jobs":{` before every job, openpbs PR #585): the same question is
// asked in qstat's plain format; the poll never stalls and no job is lost.
TEST_F(PbsJobs, UnrepairableJsonIsAskedAgainInPlainFormat) {
  write_file(dir_ / "c.yaml",
             "case: plain\nparams: {n: [0, 3]}\ncommand: exit {n}\nresources: {array: false}\n");
  const auto r =
      aerun({"case", "c.yaml", "--scheduler", "pbs"}, "PBS_STANDIN_JSON_BUGS=585,escapes");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("scheduler query failed")));
  EXPECT_EQ(sql1(db(),
                 "SELECT group_concat(status || ' ' || coalesce(exit_code, ''), ',') FROM "
                 "(SELECT * FROM runs ORDER BY job_id)"),
            "ok 0,failed 3");
}

TEST_F(PbsJobs, RetriesResubmitTransientFailuresOnlyAsTheLocalRunnerDoes) {
  // nccl fails with a communication error on its first attempt only; oom always runs out of
  // memory (a result, never retried).
  write_file(dir_ / "c.yaml", R"yaml(case: flaky
params: {mode: [nccl, oom]}
command: |
  echo run >> count-{mode}
  if [ {mode} = oom ]; then echo "torch.cuda.OutOfMemoryError: CUDA out of memory."; exit 1; fi
  if [ "$(wc -l < count-{mode})" -lt 2 ]; then echo "NCCL error in: x.cpp:1, unhandled system error"; exit 1; fi
  echo fine
status: {oom: 'CUDA out of memory', comm_error: 'NCCL error'}
retries: 2
)yaml");
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"});
  EXPECT_EQ(r.code, 1) << r.err;  // the oom stays a failure of the case
  EXPECT_THAT(r.err, HasSubstr("comm_error: submitting it again (retry 1 of 2)"));
  EXPECT_THAT(r.err, HasSubstr("1 ok, 1 failed"));
  EXPECT_THAT(r.err, HasSubstr("1 transient failure(s) retried"));
  EXPECT_EQ(read_file(dir_ / "count-nccl"), "run\nrun\n");
  EXPECT_EQ(read_file(dir_ / "count-oom"), "run\n");
  EXPECT_EQ(sql1(db(),
                 "SELECT group_concat(status || ':' || attempt, ' ') FROM "
                 "(SELECT status, attempt FROM runs ORDER BY status)"),
            "ok:2 oom:1");
}

// On a terminal `collect --wait` keeps a progress line (issue 17), erased before its event lines.
TEST_F(PbsJobs, CollectWaitShowsItsProgressOnATerminal) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1)";
  // Each job lasts until collect's terminal (its typescript, flushed as it is written) showed the
  // line (30 s at most): a fixed sleep ended the jobs before a loaded machine's first poll.
  write_file(dir_ / "c.yaml",
             "case: slowjobs\nparams: {n: [1, 2]}\ncommand: 'for i in $(seq 300); do grep -q "
             "\"2 queued or running\" typescript 2>/dev/null && break; sleep 0.1; done'\n"
             "resources: {nodes: 1, walltime: 10m, queue: debug}\n");
  ASSERT_EQ(aerun({"case", "c.yaml", "--scheduler", "pbs", "--no-wait"}).code, 0);
  const std::string cmd =
      "cd " + aerun::shell_quote(dir_.path().string()) + " && PATH=" +
      aerun::shell_quote(std::string(AERUN_FIXTURES) + "/pbs:" + std::getenv("PATH")) +
      " PBS_STANDIN_DIR=" + aerun::shell_quote(dir_ / "pbs") +
      " AERUN_PROGRESS_AFTER=0 script -qfec " +
      aerun::shell_quote(aerun::shell_quote(AERUN_BINARY) + " collect --wait") + " typescript";
  const std::string out = command_output(cmd);
  EXPECT_THAT(out, HasSubstr("\r\x1b[K[aerun] collect: 0/2 runs collected, 2 queued or running"));
  EXPECT_THAT(out, HasSubstr("collected 2 of 2 run(s): 2 ok, 0 failed; 0 still queued or running"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "2");
}

// Issue 29: PBS refuses an array of more subjobs than max_array_size (the server's, then the
// queue's); aerun asks qmgr for both and cuts the sweep into arrays that fit.
TEST_F(PbsJobs, ASweepLargerThanTheQueuesMaxArraySizeIsCutIntoArraysThatFit) {
  const auto wide = [](const std::string& name, const std::string& queue) {
    return "case: " + name + "\nparams: {n: [1, 2, 3, 4, 5, 6, 7]}\ncommand: echo \"n={n}\"\n" +
           "resources: {nodes: 1, walltime: 10m, queue: " + queue + "}\n";
  };
  write_file(dir_ / "c.yaml", wide("wide", "debug"));
  const std::string limits =
      "PBS_STANDIN_MAX_ARRAY_SIZE=5 PBS_STANDIN_QUEUE_MAX_ARRAY_SIZE=debug=3";
  const auto r = aerun({"case", "c.yaml", "--scheduler", "pbs"}, limits);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("7 runs in 3 arrays of at most 3: queue debug's max_array_size = 3 "
                               "(qmgr -c 'list queue')"));
  EXPECT_EQ(sql1(db(), "SELECT count(*) FROM runs WHERE status='ok'"), "7");
  EXPECT_EQ(
      sql1(db(), "SELECT group_concat(job_id, ' ') FROM (SELECT job_id FROM runs ORDER BY id)"),
      "1[0].standin 1[1].standin 1[2].standin 2[0].standin 2[1].standin 2[2].standin "
      "3.standin");
  // Without a queue limit the server's holds; qsub itself refuses what is over it.
  write_file(dir_ / "d.yaml", wide("wider", "workq"));
  const auto w = aerun({"case", "d.yaml", "--scheduler", "pbs"}, limits);
  ASSERT_EQ(w.code, 0) << w.err;
  EXPECT_THAT(w.err, HasSubstr("7 runs in 2 arrays of at most 5: the server's max_array_size = 5"));
}
