// One judge for every run (issue 10): a crashed run is never `ok`, whether aerun ran it or
// ingested its log; an ingested log is `ok` only with evidence that training finished.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// Megatron-LM iteration lines (the format of seed 002), i of n.
std::string iterations(int from, int to, int of) {
  std::string s;
  for (int i = from; i <= to; ++i)
    s += " iteration " + std::to_string(i) + "/ " + std::to_string(of) +
         " | elapsed time per iteration (ms): 250.5 | lm loss: 7.747273E+00 |\n";
  return s;
}

std::string status_of(const std::string& db, const std::string& file) {
  return sql1(db,
              "SELECT status || ' | ' || reason FROM runs WHERE log_path LIKE '%/" + file + "'");
}

}  // namespace

TEST(RunStatus, ALocalRunThatExitsZeroAfterATracebackIsFailed) {
  TempDir d;
  // torchrun can exit 0 after a worker died: the traceback after the last progress line decides.
  write_file(d / "crash.yaml", R"yaml(case: crash
params: {x: [1]}
command: |
  for i in 1 2 3; do echo " iteration $i/ 10 | elapsed time per iteration (ms): 5.0 |"; done
  echo 'Traceback (most recent call last):'
  echo '  File "pretrain_gpt.py", line 12, in <module>'
  echo 'RuntimeError: CUDA error: unknown error'
  exit 0
presets: [megatron]
)yaml");
  const auto r = run_aerun(d, {"case", "crash.yaml"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT status FROM runs"), "failed");
  EXPECT_THAT(sql1(db, "SELECT reason FROM runs"), HasSubstr("line 4: Traceback"));
}

TEST(RunStatus, ALocalRunThatExitsZeroWithoutProgressIsNoProgress) {
  TempDir d;
  // Megatron's own set-up line (seed 002), then nothing: a Megatron run that did not train.
  write_file(d / "np.yaml",
             "case: np\nparams: {x: [1]}\ncommand: \"echo '> initializing torch distributed "
             "...'\"\npresets: [megatron]\n");
  const auto r = run_aerun(d, {"case", "np.yaml"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT status FROM runs"), "no_progress");
}

TEST(RunStatus, ALocalRunWhoseOutputIsOfNoFormatItsPresetsKnowIsUnknownFormat) {
  TempDir d;
  write_file(d / "uf.yaml",
             "case: uf\nparams: {x: [1]}\ncommand: echo building index\npresets: [megatron]\n");
  const auto r = run_aerun(d, {"case", "uf.yaml"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT status FROM runs"), "unknown_format");
  EXPECT_THAT(sql1(d / "results/aerun.db", "SELECT reason FROM runs"), HasSubstr("(megatron)"));
}

TEST(RunStatus, IngestNeedsEvidenceThatTrainingFinished) {
  TempDir d;
  fs::create_directories(d / "logs");
  // Stops at iteration 49 of 1000 with no end line: a killed job whose log was kept.
  write_file(d / "logs/stopped.log", iterations(1, 49, 1000));
  // Progress, then a crash line.
  write_file(d / "logs/bus.log", iterations(1, 5, 10) + "Bus error (core dumped)\n");
  // Reached its planned count.
  write_file(d / "logs/done.log", iterations(1, 10, 10));
  write_file(d / "c.yaml",
             "case: c\nparams: {x: [1]}\ncommand: 'true'\npresets: [megatron]\n"
             "completion: {end: ['\\[after training is done\\]']}\n");
  const auto r = run_aerun(d, {"ingest", "logs", "--case", "c.yaml", "--db", "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "r.db";
  EXPECT_EQ(status_of(db, "stopped.log"),
            "incomplete | the log stops at 49 of 1000 (line 49) with no end line");
  EXPECT_EQ(status_of(db, "bus.log"), "failed | line 6: Bus error (core dumped)");
  EXPECT_EQ(status_of(db, "done.log"), "ok | ");
  // The metrics of an incomplete log are still stored, traceable to their lines.
  EXPECT_EQ(sql1(db,
                 "SELECT count FROM metrics m JOIN runs r ON r.id=m.run_id "
                 "WHERE r.log_path LIKE '%stopped.log' AND m.name='iter_ms'"),
            "49");
}

TEST(RunStatus, AnIngestedLogsWallTimeComesFromItsOwnTimestampsNotTheFileDate) {
  TempDir d;
  fs::create_directories(d / "logs");
  const std::string log =
      "Job started at: 2023-11-02-184407 on x3004c0s13b0n0\n"
      "[2023-11-02 18:44:32,804] [INFO] [logging.py:96:log_dist] [Rank 0] "
      "step=0, skipped=0, lr=[0.0, 0.0]\n"
      "[2023-11-02 18:50:07,500] [INFO] [logging.py:96:log_dist] [Rank 0] "
      "step=10, skipped=0, lr=[0.0, 0.0]\n";
  write_file(d / "logs/copied.log", log);
  write_file(d / "logs/no_stamps.log",
             "Job started at: 2023-11-02-184407 on x3004c0s13b0n0\n" + iterations(1, 2, 2));
  // Copied three years later: the file's date says nothing about the run.
  for (const char* f : {"logs/copied.log", "logs/no_stamps.log"})
    fs::last_write_time(d / f, fs::file_time_type::clock::now() + std::chrono::hours(24 * 365 * 3));
  write_file(d / "c.yaml",
             "case: c\nparams: {x: [1]}\ncommand: 'true'\npresets: [deepspeed, megatron, "
             "startup]\n");
  const auto r = run_aerun(d, {"ingest", "logs", "--case", "c.yaml", "--db", "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "r.db";
  // 18:44:07 -> 18:50:07.5
  EXPECT_EQ(sql1(db, "SELECT round(wall_s, 3) FROM runs WHERE log_path LIKE '%copied.log'"),
            "360.5");
  EXPECT_EQ(sql1(db, "SELECT wall_s IS NULL FROM runs WHERE log_path LIKE '%no_stamps.log'"), "1");
}

TEST(RunStatus, AssumeCompleteVouchesForExcerptsButNeverHidesACrash) {
  TempDir d;
  fs::create_directories(d / "logs");
  write_file(d / "logs/excerpt.log", iterations(30, 40, 50));
  write_file(d / "logs/oom.log",
             iterations(30, 40, 50) + "torch.cuda.OutOfMemoryError: CUDA out of memory.\n");
  const auto r = run_aerun(d, {"ingest", "logs", "--preset", "megatron", "--case", "ex",
                               "--assume-complete", "--db", "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "r.db";
  EXPECT_EQ(status_of(db, "excerpt.log"),
            "ok | completion assumed (--assume-complete); the log stops at 40 of 50");
  EXPECT_EQ(status_of(db, "oom.log"),
            "oom | line 12: torch.cuda.OutOfMemoryError: CUDA out of memory.");
}

TEST(RunStatus, AnIngestedRunShowsUnknownCpuAndMemoryAsUnknownNotZero) {
  TempDir d;
  fs::create_directories(d / "logs");
  write_file(d / "logs/a.log", iterations(1, 2, 2));
  ASSERT_EQ(run_aerun(d, {"ingest", "logs", "--preset", "megatron", "--case", "s"}).code, 0);
  const std::string key = sql1(d / "results/aerun.db", "SELECT key FROM runs");
  const auto r = run_aerun(d, {"show", key.substr(0, 8)});
  EXPECT_THAT(r.out, HasSubstr("  cpu               -\n"));
  EXPECT_THAT(r.out, HasSubstr("  max rss           -\n"));
}
