// The environment record: what a session's runs ran with, kept once per distinct content, shown
// by `aerun show RUN --env` and compared by `aerun diff` (runs or sessions).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const char* kCase = R"yaml(case: rec
params: {hidden: [64, 128]}
provenance:
  toolkit: "echo toolkit 1.2.3"
  torch: {command: "echo 'No module named torch' >&2; exit 3", timeout: 5s}
command: 'echo "samples per second: $(( {hidden} / 8 ))"'
metrics: {samples_per_s: {regex: 'samples per second: ([0-9.]+)', unit: samples/s}}
)yaml";

std::string key_of(const std::string& db, const std::string& hidden) {
  return sql1(db,
              "SELECT r.key FROM runs r JOIN run_params p ON p.run_id=r.id AND p.name='hidden' "
              "WHERE p.value='" +
                  hidden + "'")
      .substr(0, 10);
}

}  // namespace

TEST(EnvRecord, ACaseRecordsWhatItsRunsRanWithAndNeverASecretsValue) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  const std::string secret = "tok-7f3a9c55e1";
  auto r = run_aerun(
      d, {"case", "c.yaml"},
      "MY_SERVICE_TOKEN=" + secret + " AWS_SECRET_ACCESS_KEY=" + secret + " NCCL_ALGO=Ring");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "results/aerun.db";
  r = run_aerun(d, {"show", key_of(db, "64"), "--env"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("environment record of session "));
  for (const char* part : {"== os ==", "== kernel ==", "== cpu ==", "== memory ==",
                           "== environment ==", "== case file ==\ncase: rec\n"})
    EXPECT_THAT(r.out, HasSubstr(part));
  EXPECT_THAT(r.out, HasSubstr("\nNCCL_ALGO=Ring\n"));
  EXPECT_THAT(r.out, HasSubstr("\nMY_SERVICE_TOKEN=<redacted sha256:"));
  EXPECT_THAT(r.out, HasSubstr("\nAWS_SECRET_ACCESS_KEY=<redacted sha256:"));
  EXPECT_THAT(r.out, HasSubstr("== provenance toolkit ==\ntoolkit 1.2.3\n"));
  // A failing command is recorded as failing; the runs went on (exit 0 above).
  EXPECT_THAT(r.out, HasSubstr("== provenance torch  [exit code 3] ==\nNo module named torch\n"));
  // The secret is nowhere in the store's files.
  for (const char* f : {"results/aerun.db", "results/aerun.db-wal"})
    EXPECT_THAT(read_file(d / f), Not(HasSubstr(secret))) << f;
  // What can differ per run is kept per run: the hosts it ran on.
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE nodes=host AND host<>''"), "2");
  // `aerun show` points at it.
  r = run_aerun(d, {"show", key_of(db, "64")});
  EXPECT_THAT(r.out, HasSubstr("(environment record: aerun show --env)"));
}

TEST(EnvRecord, SessionsWithTheSameEnvironmentShareOneStoredRecord) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "one"}, "NCCL_ALGO=Ring").code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "two"}, "NCCL_ALGO=Ring").code, 0);
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT count(DISTINCT env_record) FROM sessions WHERE env_record<>''"), "1");
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM env_records"), "1");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "three"}, "NCCL_ALGO=Tree").code, 0);
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM env_records"), "2");
  // Only the environment text differs: the other parts' texts are stored once.
  EXPECT_EQ(sql1(db,
                 "SELECT count(*) FROM env_texts WHERE digest IN (SELECT text_digest FROM "
                 "env_record_items WHERE name='environment')"),
            "2");
  EXPECT_EQ(sql1(db,
                 "SELECT count(*) FROM env_texts WHERE digest IN (SELECT text_digest FROM "
                 "env_record_items WHERE name='case file')"),
            "1");
}

TEST(EnvRecord, DiffOfTwoRunsFromSessionsThatRanDifferentlySaysWhatDiffered) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--only", "hidden=64"}, "NCCL_ALGO=Ring").code, 0);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--only", "hidden=128"}, "NCCL_ALGO=Tree").code, 0);
  const std::string db = d / "results/aerun.db";
  auto r = run_aerun(d, {"diff", key_of(db, "64"), key_of(db, "128")});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("environment record (1 part differs, "));
  EXPECT_THAT(r.out, HasSubstr("  environment\n    - NCCL_ALGO=Ring\n    + NCCL_ALGO=Tree\n"));
  // Two runs of one session: one record.
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--session", "new"}, "NCCL_ALGO=Ring").code, 0);
  r = run_aerun(d, {"diff", key_of(db, "64"), key_of(db, "128")});
  EXPECT_THAT(r.out, HasSubstr("environment record (the same: both runs are of one session)"));
}

TEST(EnvRecord, DiffOfTwoNightsComparesTheirRecordsAndTheirRunsSideBySide) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night-1"}, "NCCL_ALGO=Ring").code, 0);
  write_file(d / "c.yaml", std::string(kCase) + "# edited the next day\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--label", "night-2"}, "NCCL_ALGO=Tree").code, 0);
  auto r = run_aerun(d, {"diff", "night-1", "night-2"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("A  session night-1  (case, started "));
  EXPECT_THAT(r.out, HasSubstr("B  session night-2  (case, started "));
  EXPECT_THAT(r.out, HasSubstr("  case rec file "));  // the case file's digest changed
  EXPECT_THAT(r.out, HasSubstr("    - NCCL_ALGO=Ring\n    + NCCL_ALGO=Tree\n"));
  EXPECT_THAT(r.out, HasSubstr("  case file\n    + # edited the next day\n"));
  EXPECT_THAT(r.out, HasSubstr("runs (2 in both, 0 only in A, 0 only in B)"));
  EXPECT_THAT(r.out, HasSubstr("metrics (median over the runs ok in both sessions)\n"
                               "  samples_per_s        12 samples/s               12 samples/s"));
  EXPECT_THAT(r.out, HasSubstr("(same)  n=2"));
  // A session against itself: nothing differs.
  r = run_aerun(d, {"diff", "--sessions", "night-2", "night-2"});
  EXPECT_EQ(r.code, 0) << r.out;
  // Neither a run nor a session: said, exit 2.
  r = run_aerun(d, {"diff", "night-1", "no-such-night"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no run or session 'no-such-night'"));
}

TEST(EnvRecord, AMergedStoreKeepsTheRecordsAndAnIngestedRunHasNone) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "a.db"}, "NCCL_ALGO=Ring").code, 0);
  ASSERT_EQ(run_aerun(d, {"merge", "a.db", "--into", "m.db"}).code, 0);
  const std::string key = key_of(d / "a.db", "64");
  auto r = run_aerun(d, {"show", key, "--env", "--db", "m.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\nNCCL_ALGO=Ring\n"));
  EXPECT_EQ(sql1(d / "m.db", "SELECT env_record FROM sessions LIMIT 1"),
            sql1(d / "a.db", "SELECT env_record FROM sessions LIMIT 1"));

  write_file(d / "logs/x.log", "samples per second: 9\n");
  r = run_aerun(d, {"ingest", "logs", "--case", "c.yaml", "--db", "i.db", "--assume-complete"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_aerun(d, {"show", sql1(d / "i.db", "SELECT id FROM runs"), "--env", "--db", "i.db"});
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("no environment record"));
}

namespace {

// A Python of its own in d/venv/bin (the folder above bin/ is its prefix, as a virtual
// environment's is): it says which of its probes ran in calls.txt and freezes what
// d/venv/installed.txt lists.
void fake_python(const TempDir& d) {
  fs::create_directories(d / "venv/bin");
  fs::create_directories(d / "venv/lib/python3.11/site-packages");
  write_file(d / "venv/installed.txt", "torch==2.1.0\n");
  write_file(
      d / "venv/bin/python",
      "#!/bin/bash\necho \"$*\" >> " + aerun::shell_quote(d / "calls.txt") +
          "\ncase \"$*\" in\n  --version) echo 'Python 3.11.9' ;;\n  '-m pip freeze'*) cat " +
          aerun::shell_quote(d / "venv/installed.txt") + " ;;\nesac\n");
  fs::permissions(d / "venv/bin/python", fs::perms::owner_all);
}

// A one-run case in d, its runs' PATH starting with the fake Python, its kept probes in d/cache:
// the environment assignments for run_aerun.
std::string one_run_with_fake_python(const TempDir& d) {
  fake_python(d);
  write_file(d / "c.yaml", "case: one\ncommand: 'true'\n");
  return "AERUN_CACHE_DIR=" + aerun::shell_quote(d / "cache") +
         " PATH=" + aerun::shell_quote(d / "venv/bin") + ":/usr/bin:/bin";
}

int freezes(const TempDir& d) {
  std::istringstream in(read_file(d / "calls.txt"));
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.rfind("-m pip freeze", 0) == 0;
  return n;
}

std::string recorded_freeze(const std::string& db) {
  return sql1(db,
              "SELECT t.text FROM sessions s JOIN env_record_items i ON i.record=s.env_record "
              "JOIN env_texts t ON t.digest=i.text_digest WHERE i.name='pip freeze' "
              "ORDER BY s.id DESC LIMIT 1");
}

}  // namespace

TEST(EnvRecord, ToolProbesAreKeptUntilWhatTheyReadChanges) {
  TempDir d;
  const std::string env = one_run_with_fake_python(d);
  const std::string db = d / "results/aerun.db";
  const auto again = [&](const std::string& more = "") {
    return run_aerun(d, {"case", "c.yaml", "--force"}, env + " " + more).code;
  };
  ASSERT_EQ(again(), 0);
  EXPECT_EQ(freezes(d), 1);
  EXPECT_EQ(recorded_freeze(db), "torch==2.1.0");
  // Nothing changed: the kept probes make the same record, without running pip.
  ASSERT_EQ(again(), 0);
  EXPECT_EQ(freezes(d), 1);
  EXPECT_EQ(sql1(db, "SELECT count(DISTINCT env_record) FROM sessions"), "1");
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM env_records"), "1");
  // The file is its owner's alone.
  const auto perms =
      fs::status(d / "cache" / fs::directory_iterator(d / "cache")->path().filename())
          .permissions();
  EXPECT_EQ(perms & (fs::perms::group_all | fs::perms::others_all), fs::perms::none);

  // `pip install numpy`: a package folder appears in site-packages.
  fs::create_directories(d / "venv/lib/python3.11/site-packages/numpy");
  write_file(d / "venv/installed.txt", "numpy==2.0.0\ntorch==2.1.0\n");
  ASSERT_EQ(again(), 0);
  EXPECT_EQ(freezes(d), 2);
  EXPECT_EQ(recorded_freeze(db), "numpy==2.0.0\ntorch==2.1.0");

  // Another environment (a variable any tool may read) is another fingerprint.
  ASSERT_EQ(again("PIP_CONFIG_FILE=/dev/null"), 0);
  EXPECT_EQ(freezes(d), 3);
  // ... but a new login's or job's variables are not.
  ASSERT_EQ(again("SLURM_JOB_ID=77 SSH_CONNECTION=x PWD=/elsewhere"), 0);
  EXPECT_EQ(freezes(d), 3);
  // A case's own `env:` reaches its tools: part of the fingerprint.
  write_file(d / "c.yaml", "case: one\ncommand: 'true'\nenv: {PYTHONNOUSERSITE: '1'}\n");
  ASSERT_EQ(again(), 0);
  EXPECT_EQ(freezes(d), 4);

  // Off: every probe each time.
  ASSERT_EQ(again("AERUN_ENV_CACHE=off"), 0);
  EXPECT_EQ(freezes(d), 5);
  // A maximum age it is past.
  ASSERT_EQ(again("AERUN_ENV_CACHE=0s"), 0);
  EXPECT_EQ(freezes(d), 6);
  const auto bad = run_aerun(d, {"case", "c.yaml", "--force"}, env + " AERUN_ENV_CACHE=soon");
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("AERUN_ENV_CACHE: invalid duration 'soon'"));
}

TEST(EnvRecord, ACacheFileOthersCouldWriteIsNotBelieved) {
  TempDir d;
  const std::string env = one_run_with_fake_python(d);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}, env).code, 0);
  const fs::path file = d / "cache" / fs::directory_iterator(d / "cache")->path().filename();
  // Someone rewrote what pip froze, and the file is open to the group.
  std::string text = read_file(file);
  text.replace(text.find("torch==2.1.0"), 12, "torch==6.6.6");
  write_file(file, text);
  fs::permissions(file, fs::perms::group_write, fs::perm_options::add);
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--force"}, env).code, 0);
  EXPECT_EQ(freezes(d), 2);
  EXPECT_EQ(recorded_freeze(d / "results/aerun.db"), "torch==2.1.0");
}

TEST(EnvRecord, GitIsNotStartedWhereNoRepositoryCouldBe) {
  TempDir d;
  for (fs::path p = d.path(); !p.empty() && p != p.parent_path(); p = p.parent_path())
    if (fs::exists(p.parent_path() / ".git"))
      GTEST_SKIP() << "the temporary directory lies inside a git repository: " << p.parent_path();
  fs::create_directories(d / "bin");
  write_file(d / "bin/git",
             "#!/bin/bash\necho \"$*\" >> " + aerun::shell_quote(d / "git-calls") + "\nexit 128\n");
  fs::permissions(d / "bin/git", fs::perms::owner_all);
  write_file(d / "c.yaml", "case: one\ncommand: 'true'\n");
  const std::string env = "PATH=" + aerun::shell_quote(d / "bin") + ":/usr/bin:/bin";
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}, env).code, 0);
  EXPECT_FALSE(fs::exists(d / "git-calls"));
  // A .git here (a folder or a worktree's file): git is asked, once for the whole invocation.
  write_file(d / ".git", "gitdir: /nowhere\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--force"}, env).code, 0);
  EXPECT_EQ(read_file(d / "git-calls"),
            "-C " + d.path().string() + " rev-parse --verify -q HEAD\n");
}
