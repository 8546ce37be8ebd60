// Issue 40's fourth blind pass (51 attempts by a tester who had not read the code, on 748a2f0):
// each class it broke, with the attempt that broke it (the tester's repro in the comment). Every
// test here failed on that main.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <thread>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// Every text the commands print about the store's runs.
std::string every_listing(const TempDir& d) {
  std::string all;
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"runs", "--all-columns"},
                                             {"runs", "--format", "json"},
                                             {"runs", "--format", "csv"},
                                             {"show", "1"},
                                             {"show", "1", "--env"},
                                             {"diff", "1", "2"},
                                             {"env", "--format", "text"}}) {
    const auto r = run_aerun(d, args);
    all += r.out + r.err;
  }
  return all;
}

}  // namespace

// Attempt 35: `regress --json results/aerun.db` replaced the store it had just read with JSON.
TEST(StoreOverwrittenFourthPass, AReportFileNeverReplacesAStoreOrALog) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: demo\nparams: {x: [1, 2]}\ncommand: 'echo \"loss: 1.{x}\"'\n"
             "metrics: {loss: 'loss: ([0-9.]+)'}\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--force", "--label", "b"}).code, 0);
  const std::string store_before = read_file(d / "results/aerun.db");
  auto r = run_aerun(d, {"regress", "--min-repeats", "1", "--json", "results/aerun.db"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("--json"), HasSubstr("SQLite database")));
  r = run_aerun(d, {"regress", "--min-repeats", "1", "--json", "other.db"}, "");
  write_file(d / "another.db", store_before);  // any store, not only this one
  r = run_aerun(d, {"regress", "--min-repeats", "1", "--junit", "another.db"});
  EXPECT_EQ(r.code, 2);
  const std::string log = sql1(d / "results/aerun.db", "SELECT log_path FROM runs LIMIT 1");
  const std::string log_before = read_file(log);
  r = run_aerun(d, {"regress", "--min-repeats", "1", "--junit", log});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("logs folder"));
  EXPECT_EQ(read_file(log), log_before);
  r = run_aerun(d, {"init", "x", "--out", "results/aerun.db", "--force", "--", "echo"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs"), "2");
  // A file of the user's own is still written.
  r = run_aerun(d, {"regress", "--min-repeats", "1", "--json", "verdicts.json"});
  EXPECT_THAT(read_file(d / "verdicts.json"), HasSubstr("\"rows\""));
}

// Attempt 10: SIGUSR1 (Slurm's `--signal` warning), USR2, ALRM, PWR, XCPU ended aerun at once; its
// run kept running unsupervised and stayed `running` in the store.
TEST(SignalsFourthPass, EverySignalThatWouldEndAerunStopsItsRunsAndStoresThem) {
  for (const int sig : {SIGUSR1, SIGALRM, SIGXCPU}) {
    TempDir d;
    const std::string marker = "aerun-sig-marker-" + std::to_string(sig);
    // A pattern that matches the marker but not itself (the shell's own command line holds it).
    const std::string pattern = "aerun-sig-marke[r]-" + std::to_string(sig);
    write_file(d / "c.yaml",
               "case: sig\nparams: {x: [1]}\ncommand: 'exec -a " + marker + " sleep 30'\n");
    const std::string cmd = "cd " + d.path().string() + " && (" + AERUN_BINARY +
                            " case c.yaml >out 2>&1 & P=$!; for i in $(seq 100); do pgrep -f '" +
                            pattern +
                            "'"
                            " >/dev/null && break; sleep 0.1; done; sleep 0.3; kill -" +
                            std::to_string(sig) + " $P; wait $P; echo rc=$?; sleep 0.5; " +
                            "pgrep -f '" + pattern + "' | wc -l)";
    const std::string out = command_output(cmd);
    command_output("pkill -f '" + pattern + "'");
    EXPECT_THAT(out, HasSubstr("rc=" + std::to_string(128 + sig) + "\n")) << sig;
    EXPECT_THAT(out, HasSubstr("\n0\n")) << "the run was left running on signal " << sig;
    EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT status FROM runs"), "interrupted") << sig;
  }
}

// Attempt 14: a merged store's session label with a newline printed `### aerun regress: evil` and
// then a forged Markdown table row of its own.
TEST(OddBytesFourthPass, AStoresSessionLabelNeverStartsALineOfItsOwn) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: demo\nparams: {x: [1, 2]}\ncommand: 'echo \"loss: 1.{x}\"'\n"
             "metrics: {loss: 'loss: ([0-9.]+)'}\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "f.db", "--label", "one"}).code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "f.db", "--label", "two", "--force"}).code, 0);
  ASSERT_NO_FATAL_FAILURE(sql_exec(
      d / "f.db", "UPDATE sessions SET label='evil'||char(10)||'| pwn | x |' WHERE label='two'"));
  ASSERT_EQ(run_aerun(d, {"merge", "f.db", "--into", "m.db"}).code, 0);
  for (const char* db : {"f.db", "m.db"}) {
    const auto r = run_aerun(d, {"regress", "--db", db, "--min-repeats", "1"});
    EXPECT_THAT(r.out, Not(HasSubstr("\n| pwn |"))) << db;
    EXPECT_THAT(r.out, HasSubstr("evil\\x0a| pwn |")) << db;
  }
}

// Attempts 39, 40: `diff` printed a secret parameter's value used as a plain argument, which
// `show` redacted. Attempts 04, 21, 23, 30: secrets in a query string, a header, curl's -u, a JSON
// argument, and names and token shapes outside the list.
TEST(SecretsShownFourthPass, QueryStringsHeadersAndMoreNamesAndShapesAreRedactedEverywhere) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: sec
env:
  DATA_URL: "https://data.example.com/shard?token=QTOKEN1111&x=1"
  S3_URL: "https://b.s3.amazonaws.com/o?X-Amz-Signature=AMZSIG2222&y=2"
params:
  password: [DIFFPWA111, DIFFPWB222]
  url: ["https://h.example.com/v1?api_key=PKEY3333"]
  ssh_key: [SSHKEY4444]
  jwt: [eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.PAYLOADSIG5555]
  stripe: [sk_live_STRIPE66666666666666]
command: >-
  echo connecting {password} -H "X-Api-Key: HDR7777" -u alice:CURLPW8888
  --json '{"hf_token": "HFJSON9999"}' --db "postgres://h/x?sslpassword=SSLPW1212" {url}
)yaml");
  const auto r = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string all = r.out + r.err + every_listing(d);
  for (const char* secret :
       {"QTOKEN1111", "AMZSIG2222", "DIFFPWA111", "DIFFPWB222", "PKEY3333", "SSHKEY4444",
        "PAYLOADSIG5555", "STRIPE6666", "HDR7777", "CURLPW8888", "HFJSON9999", "SSLPW1212"})
    EXPECT_THAT(all, Not(HasSubstr(secret))) << secret;
  // What names no secret stays: the user of -u, the host, the other query parameters.
  EXPECT_THAT(all, AllOf(HasSubstr("alice:"), HasSubstr("data.example.com"), HasSubstr("&x=1")));
}

// Attempts 33, 34: what a scheduler printed (a refusal, a job's reason) was stored and shown whole,
// secrets and 100 KB included.
TEST(SecretsShownFourthPass, WhatTheSchedulerSaysIsRedactedAndBounded) {
  TempDir d;
  write_file(d / "bin/sbatch",
             "#!/bin/sh\necho 'sbatch: error: Batch job submission failed: token=SBTOK1111 "
             "rejected' >&2\nexit 1\n");
  fs::permissions(d / "bin/sbatch", fs::perms::owner_all);
  write_file(d / "c.yaml", "case: sb\nscheduler: slurm\nparams: {x: [1]}\ncommand: echo {x}\n");
  const auto r = run_aerun(d, {"case", "c.yaml"}, "PATH=" + (d / "bin") + ":$PATH");
  EXPECT_NE(r.code, 0);
  const std::string all = r.out + r.err + every_listing(d);
  EXPECT_THAT(all, HasSubstr("submission failed"));
  EXPECT_THAT(all, Not(HasSubstr("SBTOK1111")));
  EXPECT_THAT(sql1(d / "results/aerun.db", "SELECT reason FROM runs"), Not(HasSubstr("SBTOK1111")));
}

// Attempt 48 (a log truncated while `ingest` read its parts: an internal error, exit 3) is tested
// where its race can be made certain: IngestFile.ALogCutShorterWhileItsPartsAreReadIsRefused.
