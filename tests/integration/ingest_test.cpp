// `aerun ingest`: the real binary on folders named like seeds 000 and 002, checked with SQL.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

const std::string kLogs = std::string(AERUN_FIXTURES) + "/logs/";

// Seed 000's first-step line for a stamp "YYYY-MM-DD HH:MM:SS,mmm".
std::string step_line(const std::string& stamp) {
  return "[" + stamp +
         "] [INFO] [logging.py:96:log_dist] [Rank 0] step=0, skipped=0, lr=[0.0, 0.0], "
         "mom=[(0.9, 0.999), (0.9, 0.999)]\n";
}

}  // namespace

TEST(Ingest, Seed002FolderBecomesRunsOfACaseFileWithItsTable) {
  TempDir d;
  fs::create_directories(d / "results");
  fs::copy_file(kLogs + "fixture_stronghold_offload.log",
                d / "results/log_stronghold_l-32_hs-2048_bs-4_ws-2_2022-06-29.1656476815.txt");
  fs::copy_file(kLogs + "fixture_megatron_stronghold.log",
                d / "results/log_stronghold_l-32_hs-2048_bs-4_ws-10_2022-06-29.1656478517.txt");
  fs::copy_file(kLogs + "fixture_status_no_progress.log",
                d / "results/log_l2l_l-78_hs-2048_bs-4_ws-4_2022-06-29.1656464452.txt");
  write_file(
      d / "fig9.yaml",
      "case: fig9\nparams: {method: [stronghold], layers: [32], hidden: [2048], batch: [4],\n"
      "  window: [2, 10], date: [x]}\ncommand: ./run.sh {method} {window} {date}\n"
      "presets: [megatron, stronghold]\n"
      "tables:\n  fig9:\n    rows: [method, window]\n"
      "    columns: [{metric: sh_samples_per_s, format: .4f}]\n");
  // The seed's logs are excerpts of finished runs (the notebook's): vouched for.
  const std::vector<std::string> args = {
      "ingest",
      "--assume-complete",
      "results",
      "--case",
      "fig9.yaml",
      "--db",
      "r.db",
      "--pattern",
      "log_{method}_l-{layers}_hs-{hidden}_bs-{batch}_ws-{window}_{date}.txt"};
  auto r = run_aerun(d, args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("3 added, 0 updated, 0 unchanged, 0 skipped"));
  const std::string db = d / "r.db";
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE case_name='fig9'"), "3");
  EXPECT_EQ(sql1(db,
                 "SELECT status FROM runs r JOIN run_params p ON p.run_id=r.id "
                 "WHERE p.name='method' AND p.value='l2l'"),
            "no_progress");
  EXPECT_EQ(sql1(db, "SELECT num FROM run_params WHERE name='window' ORDER BY num DESC LIMIT 1"),
            "10.0");

  // Idempotent: nothing changes the second time.
  const std::string before = sql1(db, "SELECT group_concat(updated_at) FROM runs");
  r = run_aerun(d, args);
  EXPECT_THAT(r.out, HasSubstr("0 added, 0 updated, 3 unchanged"));
  EXPECT_EQ(sql1(db, "SELECT group_concat(updated_at) FROM runs"), before);

  // The case's table works on ingested runs; ws-2 sorts before ws-10.
  r = run_aerun(d, {"table", "fig9", "--cases", "fig9.yaml", "--db", "r.db", "--format", "csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(r.out.find("stronghold,2,"), r.out.find("stronghold,10,")) << r.out;
  EXPECT_THAT(r.out, HasSubstr("0.5294"));  // (0.66096... + 0.39788...) / 2

  // Every number traces to its file and line.
  const std::string key = sql1(db,
                               "SELECT key FROM runs r JOIN run_params p ON p.run_id=r.id "
                               "WHERE p.name='window' AND p.value='2'");
  r = run_aerun(d, {"show", key.substr(0, 8), "--db", "r.db"});
  EXPECT_THAT(r.out, HasSubstr("sh_samples_per_s"));
  EXPECT_THAT(r.out,
              HasSubstr("log_stronghold_l-32_hs-2048_bs-4_ws-2_2022-06-29.1656476815.txt:7"));
}

TEST(Ingest, Seed000StartupTimesUseCalendarArithmetic) {
  TempDir d;
  write_file(
      d / "logs/foremans-login12-nhosts2-ngpu8-2023-10-15-185952.log",
      "Job started at: 2023-10-15-185952 on login12\n" + step_line("2023-10-15 19:00:46,000"));
  write_file(
      d / "logs/foremans-nid008192-nhosts128-ngpu512-2023-10-26-005401.log",
      "Job started at: 2023-10-26-005401 on nid008192\n" + step_line("2023-10-26 00:58:11,000"));
  write_file(d / "logs/notes.txt", "not a log\n");
  auto r = run_aerun(
      d, {"ingest", "logs", "--case", "startup", "--preset", "startup,deepspeed", "--pattern",
          "{user}-{host}-nhosts{nhosts}-ngpu{ngpu}-{stamp}.log", "--db", "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("2 added, 0 updated, 0 unchanged, 1 skipped"));
  EXPECT_THAT(r.err, HasSubstr("skipped"));
  const std::string db = d / "r.db";
  // 18:59:52 -> 19:00:46 is 54 s (seed 000's table: 4094); 00:54:01 -> 00:58:11 is 250 s (410)
  EXPECT_EQ(sql1(db,
                 "SELECT group_concat(startup_s, ' ') FROM (SELECT startup_s FROM runs "
                 "ORDER BY startup_s)"),
            "54.0 250.0");
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM metrics WHERE name='log_startup_s' AND source_line=2"),
            "2");
}

TEST(Ingest, BadInputIsExitCode2) {
  TempDir d;
  write_file(d / "logs/a.log", "x\n");
  auto r = run_aerun(d, {"ingest", "logs", "--case", "c", "--preset", "megatorn", "--db", "r.db"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean 'megatron'?"));
  r = run_aerun(d, {"ingest", "nowhere", "--case", "c", "--preset", "megatron", "--db", "r.db"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no such file or folder: nowhere"));
  EXPECT_FALSE(fs::exists(d / "r.db"));  // a mistyped path leaves no empty store behind
}

// Two ingests of the same folder at once (a nightly job started twice): every log is stored once,
// and each ingest reports what it did itself, so the "added" of both sum to the logs.
TEST(Ingest, ConcurrentIngestsOfOneFolderEachReportWhatTheyDid) {
  TempDir d;
  fs::create_directories(d / "logs");
  for (int i = 1; i <= 40; ++i)
    write_file(d / ("logs/run-" + std::to_string(i) + ".log"),
               " iteration       10/      10 | elapsed time per iteration (ms): " +
                   std::to_string(100 + i) + ".5 | lm loss: 1.0E+00 |\n");
  const std::string ingest = aerun::shell_quote(AERUN_BINARY) +
                             " ingest logs --case twice --preset megatron --pattern 'run-{i}.log'";
  command_output("cd " + aerun::shell_quote(d.path().string()) + " && (" + ingest +
                 " >a.txt 2>&1 & " + ingest + " >b.txt 2>&1; wait)");
  auto added = [&](const std::string& file) {
    const std::string text = read_file(d / file);
    const auto at = text.find("case twice: 40 files: ");
    EXPECT_NE(at, std::string::npos) << text;
    return at == std::string::npos ? -1 : std::stoi(text.substr(at + 22));
  };
  const int a = added("a.txt"), b = added("b.txt");
  EXPECT_EQ(a + b, 40) << read_file(d / "a.txt") << read_file(d / "b.txt");
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs"), "40");
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT max(attempt) FROM runs"), "1");
}

// A capture that is not a number is counted in the run's record, not dropped silently.
TEST(Ingest, ExtractionWarningsAreCountedAndShown) {
  TempDir d;
  write_file(d / "warn.yaml",
             "case: warn\ncommand: 'true'\nmetrics:\n  loss: {regex: 'lm loss: (\\S+)', reduce: "
             "mean}\n");
  write_file(d / "logs/run.log",
             "lm loss: 2.5\nlm loss: nan\nlm loss: 1.5\nlm loss: inf\nlm loss: 0x10\n");
  auto r =
      run_aerun(d, {"ingest", "--assume-complete", "logs", "--case", "warn.yaml", "--db", "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "r.db";
  EXPECT_EQ(sql1(db, "SELECT value FROM metrics WHERE name='loss'"), "2.0");
  EXPECT_EQ(sql1(db, "SELECT text FROM run_warnings"),
            "metric loss: 3 captures were not a finite decimal number and not used (first: line "
            "2, \"nan\")");
  r = run_aerun(d, {"show", sql1(db, "SELECT key FROM runs"), "--db", "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out,
              HasSubstr("extraction warnings (what the log gave that was not used)\n  metric "
                        "loss: 3 captures were not"));
}

// One big log is read on several threads, cut at line ends into parts: the stored run is the one a
// single pass stores, to the bit, whatever the parts (here 5,000-byte parts of a 1.3 MB log made of
// every fixture log, plus values whose sum depends on the order of addition, a metric with a skip
// count and a series).
TEST(Ingest, ABigLogReadOnSeveralThreadsIsStoredAsOnePassStoresIt) {
  TempDir d;
  write_file(d / "big.yaml", R"yaml(case: big
command: 'true'
presets: [megatron, deepspeed, stronghold, ezpz, hf-trainer, startup]
metrics:
  v: {regex: 'v=(\S+)', reduce: mean, skip: 40, series: true}
  v_med: {regex: 'v=(\S+)', reduce: median, skip: 3}
  w: {regex: 'w=(\S+)', reduce: count}
)yaml");
  std::string fixtures;
  for (const auto& e : fs::directory_iterator(kLogs))
    if (e.path().extension() == ".log") fixtures += read_file(e.path());
  std::string log;
  for (int i = 0; log.size() < 1'300'000; ++i) {
    log +=
        "v=" + std::to_string(i % 7 == 0 ? 1e17 + i : 0.1 * i) + " w=x" + std::to_string(i) + "\n";
    if (i % 500 == 0) log += fixtures;
  }
  write_file(d / "logs/run.log", log);
  auto r = run_aerun(d, {"ingest", "logs", "--case", "big.yaml", "--db", "one.db", "-j", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_aerun(d, {"ingest", "logs", "--case", "big.yaml", "--db", "parts.db", "-j", "3"},
                "AERUN_INGEST_SEGMENT_BYTES=5000");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto dump = [&](const std::string& db) {
    std::string out;
    for (const char* q :
         {"SELECT status, reason, log_sha256, log_size, launch_time, startup_time, end_time, "
          "startup_s, wall_s FROM runs",
          "SELECT name, quote(value), unit, count, source_line FROM metrics ORDER BY name",
          "SELECT metric, idx, quote(value), source_line FROM series ORDER BY metric, idx",
          "SELECT position, text FROM run_warnings ORDER BY position"})
      for (const auto& row : sql(d / db, q)) {
        for (const auto& c : row) out += c + "|";
        out += "\n";
      }
    return out;
  };
  const std::string one = dump("one.db");
  EXPECT_EQ(dump("parts.db"), one);
  EXPECT_THAT(one, HasSubstr("v|0|"));  // the series is there, and with it every value
  EXPECT_EQ(sql1(d / "one.db", "SELECT count(*) FROM metrics"),
            sql1(d / "parts.db", "SELECT count(*) FROM metrics"));
  EXPECT_GT(std::stoi(sql1(d / "one.db", "SELECT count(*) FROM metrics")), 10);
  // The digest is the file's SHA-256, as sha256sum computes it.
  EXPECT_EQ(sql1(d / "parts.db", "SELECT log_sha256 FROM runs"),
            command_output("sha256sum " + aerun::shell_quote(d / "logs/run.log") + " | cut -c1-64")
                .substr(0, 64));
}
