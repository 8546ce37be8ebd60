// `aerun case`: a real sweep launched, timestamped, measured and stored.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/util/sha256.hpp"
#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// A case whose command prints a start line, sleeps, prints a first step and iteration lines.
const char* kCase = R"yaml(case: tiny
title: "Tiny sweep"
params:
  size: [1, 2]
  label: hello
command: |
  echo "Job started at: $(date +%Y-%m-%d-%H%M%S) on $(hostname)"
  sleep 0.3
  echo "step=0, skipped=0"
  for i in 1 2 3 4; do
    echo " iteration $i/ 4 | elapsed time per iteration (ms): $(( {size} * 10 + i )).5 | lm loss: 2.5E+00 |"
  done
  echo "label={label} repeat={repeat}"
repeat: 2
metrics:
  iter_ms: {regex: 'elapsed time per iteration \(ms\): ([0-9.]+)', reduce: median, skip: 1, unit: ms}
  iters: {regex: 'iteration (\d+)/', reduce: count}
  loss: {regex: 'lm loss: ([0-9.E+-]+)', series: true}
startup: 'step=0,'
)yaml";

}  // namespace

TEST(CaseRun, StoresEveryRunWithTimestampsMetricsAndLogs) {
  TempDir d;
  write_file(d / "tiny.yaml", kCase);
  const auto r = run_aerun(d, {"case", "tiny.yaml", "-j", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE case_name='tiny' AND status='ok'"), "4");
  // size=2: iterations 2..4 after skipping the first -> 22.5, 23.5, 24.5 -> median 23.5
  EXPECT_EQ(sql1(db,
                 "SELECT group_concat(DISTINCT m.value) FROM metrics m JOIN run_params p "
                 "ON p.run_id=m.run_id AND p.name='size' AND p.value='2' WHERE m.name='iter_ms'"),
            "23.5");
  EXPECT_EQ(sql1(db, "SELECT CAST(min(value) AS INTEGER) FROM metrics WHERE name='iters'"), "4");
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM series WHERE metric='loss'"), "16");
  // Startup: the first step came after the 0.3 s sleep, before the end of the run.
  for (const auto& row : sql(db,
                             "SELECT startup_s, wall_s, launch_time, first_output_time, "
                             "startup_time, end_time FROM runs")) {
    const double startup = std::stod(row[0]), wall = std::stod(row[1]);
    EXPECT_GE(startup, 0.25);
    EXPECT_LE(startup, wall);
    EXPECT_LE(std::stod(row[2]), std::stod(row[3]));
    EXPECT_LE(std::stod(row[3]), std::stod(row[4]));
    EXPECT_LE(std::stod(row[4]), std::stod(row[5]));
  }
  // Logs are kept, with their size and digest.
  for (const auto& row : sql(db, "SELECT log_path, log_size, log_sha256 FROM runs")) {
    const std::string text = read_file(row[0]);
    EXPECT_THAT(text, HasSubstr("label=hello"));
    EXPECT_EQ(std::to_string(text.size()), row[1]);
    EXPECT_EQ(aerun::sha256_file(row[0]), row[2]);
  }
  // Provenance and process accounting.
  EXPECT_EQ(sql1(db,
                 "SELECT count(*) FROM runs WHERE host<>'' AND aerun_version<>'' "
                 "AND exit_code=0 AND max_rss_kb>0"),
            "4");
  EXPECT_EQ(sql1(db, "SELECT group_concat(DISTINCT repeat_index) FROM runs"), "0,1");
}

TEST(CaseRun, RunningTheCaseAgainReusesEveryRunThatSucceeded) {
  TempDir d;
  write_file(d / "tiny.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "tiny.yaml"}).code, 0);
  const std::string db = d / "results/aerun.db";
  const auto before = sql(db, "SELECT key, launch_time, attempt FROM runs ORDER BY key");
  const auto again = run_aerun(d, {"case", "tiny.yaml"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("4 reused"));
  EXPECT_EQ(sql(db, "SELECT key, launch_time, attempt FROM runs ORDER BY key"), before);
  // --force runs them again: same keys, new attempts.
  ASSERT_EQ(run_aerun(d, {"case", "tiny.yaml", "--force", "--only", "size=1"}).code, 0);
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs"), "4");
  EXPECT_EQ(sql1(db,
                 "SELECT group_concat(attempt) FROM runs r JOIN run_params p ON p.run_id=r.id "
                 "AND p.name='size' AND p.value='1'"),
            "2,2");
}

TEST(CaseRun, FailuresAreRecordedWithTheirReasonAndTheOtherRunsGoOn) {
  TempDir d;
  write_file(d / "fail.yaml", R"yaml(case: failing
params: {mode: [ok, exit3, oom, missing]}
command: |
  case {mode} in
    ok) echo fine ;;
    exit3) echo "about to fail"; exit 3 ;;
    oom) echo "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"; exit 1 ;;
    missing) /nonexistent/train.py ;;
  esac
status:
  - {regex: 'CUDA out of memory', status: oom}
)yaml");
  const auto r = run_aerun(d, {"case", "fail.yaml", "-j", "2"});
  EXPECT_EQ(r.code, 1);
  const std::string db = d / "results/aerun.db";
  auto status_of = [&](const std::string& mode) {
    return sql(db,
               "SELECT status, reason FROM runs r JOIN run_params p ON p.run_id=r.id AND "
               "p.name='mode' WHERE p.value='" +
                   mode + "'")[0];
  };
  EXPECT_EQ(status_of("ok")[0], "ok");
  EXPECT_EQ(status_of("exit3")[0], "failed");
  EXPECT_THAT(status_of("exit3")[1], HasSubstr("exit code 3: about to fail"));
  EXPECT_EQ(status_of("oom")[0], "oom");
  EXPECT_THAT(status_of("oom")[1], HasSubstr("line 1: RuntimeError: CUDA out of memory"));
  EXPECT_EQ(status_of("missing")[0], "failed");
  EXPECT_THAT(status_of("missing")[1], HasSubstr("No such file"));
}

TEST(CaseRun, TimeoutKillsTheRunAndRetriesOnTimeoutGiveItAnotherAttempt) {
  TempDir d;
  // A timeout is a result, not retried by default: the case asks for it.
  write_file(d / "slow.yaml", R"yaml(case: slow
params: {x: 1}
command: if [ -e marker ]; then echo second; else touch marker; exec sleep 30; fi
timeout: 1s
retries: {count: 1, on: [timeout]}
)yaml");
  const auto r = run_aerun(d, {"case", "slow.yaml"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("timeout"));
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT status || ' ' || attempt FROM runs"), "ok 2");
  // The first attempt's log is kept beside the second's.
  EXPECT_EQ(
      std::distance(fs::directory_iterator(d / "results/logs/slow"), fs::directory_iterator{}), 2);
}

TEST(CaseRun, TimeoutWithoutRetriesIsStoredAsTimeout) {
  TempDir d;
  write_file(d / "slow.yaml", "case: slow\ncommand: sleep 30\ntimeout: 1\n");
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_aerun(d, {"case", "slow.yaml"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT status FROM runs"), "timeout");
}

TEST(CaseRun, OnlySelectsRunsByParameterAndRepeat) {
  TempDir d;
  write_file(d / "tiny.yaml", kCase);
  const auto r = run_aerun(d, {"case", "tiny.yaml", "--only", "size=2", "--only", "repeat=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sql1(d / "results/aerun.db",
                 "SELECT count(*) FROM runs r JOIN run_params p ON p.run_id=r.id AND "
                 "p.name='size' AND p.value='2' WHERE r.repeat_index=1"),
            "1");
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs"), "1");
}

TEST(CaseRun, EnvironmentAndWorkdirReachTheRun) {
  TempDir d;
  write_file(d / "sub/envcase.yaml", R"yaml(case: envcase
workdir: ..
env: {GREETING: "hi there", N: 3}
command: echo "$GREETING/$N/$(basename "$PWD")/$AERUN_CASE/${AERUN_RUN_KEY:0:8}"
)yaml");
  ASSERT_EQ(run_aerun(d, {"case", "sub/envcase.yaml", "--db", "store.db"}).code, 0);
  const auto row = sql(d / "store.db", "SELECT log_path, key, workdir FROM runs")[0];
  EXPECT_EQ(read_file(row[0]), "hi there/3/" + d.path().filename().string() + "/envcase/" +
                                   row[1].substr(0, 8) + "\n");
  EXPECT_EQ(fs::path(row[2]), fs::canonical(d.path()));
}

// Python block-buffers stdout into a pipe. aerun runs it with PYTHONUNBUFFERED=1, so a line is
// stamped when the program prints it, not when the program ends; a case may turn that off.
TEST(CaseRun, PythonsLinesAreStampedWhenPrintedNotWhenItEnds) {
  // As a user's shell mostly is: the variable not set.
  const char* was = std::getenv("PYTHONUNBUFFERED");
  const std::string saved = was ? was : "";
  ::unsetenv("PYTHONUNBUFFERED");
  struct Restore {
    bool set;
    std::string value;
    ~Restore() {
      if (set) ::setenv("PYTHONUNBUFFERED", value.c_str(), 1);
    }
  } restore{was != nullptr, saved};
  TempDir d;
  const std::string command =
      "command: python3 -c 'import time; print(\"started\"); time.sleep(2); print(\"done\")'\n";
  write_file(d / "py.yaml", "case: py\n" + command);
  write_file(d / "buffered.yaml", "case: buffered\nenv: {PYTHONUNBUFFERED: \"\"}\n" + command);
  ASSERT_EQ(run_aerun(d, {"case", "py.yaml"}).code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "buffered.yaml"}).code, 0);
  const auto first_output_before_end = [&](const std::string& c) {
    return std::stod(
        sql1(d / "results/aerun.db",
             "SELECT end_time - first_output_time FROM runs WHERE case_name='" + c + "'"));
  };
  EXPECT_GT(first_output_before_end("py"), 1.0);        // "started" came 2 s before the end
  EXPECT_LT(first_output_before_end("buffered"), 1.0);  // both lines came at the end
}

TEST(CaseRun, TheGitCommitOfTheWorkdirIsRecordedWithEveryRun) {
  TempDir d;
  const std::string repo = d / "repo";
  fs::create_directories(repo);
  write_file(repo + "/train.sh", "echo trained\n");
  const std::string git = "cd " + aerun::shell_quote(repo) +
                          " && git init -q && git add train.sh && git -c user.name=t -c "
                          "user.email=t@t commit -qm init && git rev-parse HEAD > ../head";
  ASSERT_EQ(std::system(git.c_str()), 0);
  write_file(d / "g.yaml", "case: g\nworkdir: repo\ncommand: sh train.sh\n");
  ASSERT_EQ(run_aerun(d, {"case", "g.yaml"}).code, 0);
  std::string head = read_file(d / "head");
  head.erase(head.find_last_not_of('\n') + 1);
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT git_commit FROM runs"), head);
  // A local change shows as -dirty.
  write_file(repo + "/train.sh", "echo changed\n");
  ASSERT_EQ(run_aerun(d, {"case", "g.yaml", "--force"}).code, 0);
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT git_commit FROM runs"), head + "-dirty");
}

TEST(CaseRun, ARunSeesItsCaseKeyRepeatAndAttempt) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: vars\nparams: {x: [1]}\ncommand: |\n"
             "  echo \"$AERUN_CASE $AERUN_REPEAT $AERUN_ATTEMPT ${#AERUN_RUN_KEY}\" >> seen\n"
             "  echo {attempt} > out-{repeat}-{attempt}.txt\n"
             "  test \"$AERUN_ATTEMPT\" -ge 2\n"
             "retries: {count: 1, on: [failed]}\n");
  EXPECT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  EXPECT_EQ(read_file(d / "seen"), "vars 0 1 64\nvars 0 2 64\n");
  // {attempt} in the command: each attempt its own file, one run (one key) for both.
  EXPECT_EQ(read_file(d / "out-0-1.txt"), "1\n");
  EXPECT_EQ(read_file(d / "out-0-2.txt"), "2\n");
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs"), "1");
}

// Issue 28: extraction ran on the path that drains the command's pipe, so a slow metric pattern
// made the command wait on a full pipe (a 0.23 s run stored wall_s 17.9 s). Extraction has a thread
// of its own: the command writes 8 MB at the speed of the pipe and its stored times are its own,
// however long the pattern takes afterwards.
TEST(CaseRun, ASlowMetricPatternNeverSlowsTheCommandOrItsStoredTimes) {
  TempDir d;
  std::string data;
  unsigned x = 1;
  for (int i = 0; i < 80000; ++i) {
    for (int k = 0; k < 99; ++k) {
      x = x * 1103515245u + 12345u;
      data += (x >> 16) & 1 ? 'a' : 'b';
    }
    data += "c\n";
  }
  write_file(d / "data.txt", data);
  write_file(d / "c.yaml", R"yaml(case: slow
command: s=$(date +%s%N); cat data.txt; e=$(date +%s%N); echo "wrote_ms=$(( (e - s) / 1000000 ))"
metrics:
  hit: {regex: '(?:a|b)*a(?:a|b){25}(c)', reduce: last}
  wrote_ms: {regex: 'wrote_ms=([0-9]+)', unit: ms}
)yaml");
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_aerun(d, {"case", "c.yaml"});
  const double elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "results/aerun.db";
  const double wrote_ms = std::stod(sql1(db, "SELECT value FROM metrics WHERE name='wrote_ms'"));
  const double wall_ms = 1000 * std::stod(sql1(db, "SELECT wall_s FROM runs"));
  // Both are the command's own: a small part of what aerun spent extracting.
  EXPECT_LT(wrote_ms, elapsed_ms / 2) << "elapsed " << elapsed_ms << " ms";
  EXPECT_LT(wall_ms, elapsed_ms / 2) << "elapsed " << elapsed_ms << " ms";
}

// Issue 28: a log deleted (or replaced) while its run ran was stored with size -1 and a digest of
// the stream, and nothing said so. The size is what the command wrote, and a warning says why the
// file is not there.
TEST(CaseRun, ALogDeletedWhileItsRunRanIsSaidNotStoredAsSizeMinusOne) {
  TempDir d;
  write_file(d / "c.yaml", "case: gone\ncommand: echo one; rm -rf results/logs; echo two\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT log_size FROM runs"), "8");
  EXPECT_EQ(sql1(db, "SELECT log_sha256 FROM runs"), aerun::sha256_hex("one\ntwo\n"));
  EXPECT_THAT(sql1(db, "SELECT group_concat(text) FROM run_warnings"),
              HasSubstr("was deleted or replaced while the run ran"));
}
