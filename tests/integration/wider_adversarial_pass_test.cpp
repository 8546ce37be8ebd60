// Issue 40's wider adversarial pass (61 attempts by a tester who had not read the code, on
// 716e2b6): each class it still broke, with the attempt that broke it. Every test here failed on
// that main.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

std::string everything_in(const std::string& dir) {
  std::string all;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) all += read_file(e.path().string());
  return all;
}

}  // namespace

TEST(SecretsShown, AParameterNamedForASecretIsRedactedInEveryListing) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: sec
params:
  x: [1, 2]
  password: "Pw_5ecret"
  hf_token: "hf_5ecret"
  max_tokens: 4096
command: echo "time {x}.5"
metrics:
  t: 'time ([0-9.]+)'
tables:
  tb:
    rows: [x, password]
    columns:
      - {metric: t}
)yaml");
  const auto run = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(run.code, 0) << run.err;
  std::string shown = run.out + run.err;
  const std::string k1 = sql1(d / "results/aerun.db", "SELECT key FROM runs ORDER BY id LIMIT 1");
  const std::string k2 =
      sql1(d / "results/aerun.db", "SELECT key FROM runs ORDER BY id DESC LIMIT 1");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"show", k1},
                                             {"runs"},
                                             {"runs", "--format", "csv", "--all-columns"},
                                             {"runs", "--format", "json"},
                                             {"diff", k1, k2, "--all"},
                                             {"table", "tb", "--cases", "c.yaml"},
                                             {"report", "--html", "site"}}) {
    const auto r = run_aerun(d, args);
    EXPECT_LE(r.code, 1) << args[0] << ": " << r.err;  // diff: 1 when the runs differ
    shown += r.out + r.err;
  }
  shown += everything_in(d / "site");
  EXPECT_THAT(shown, Not(HasSubstr("5ecret")));
  EXPECT_THAT(shown, HasSubstr("<redacted sha256:"));
  EXPECT_THAT(shown, HasSubstr("4096"));  // max_tokens is no secret
  // The store keeps what ran (provenance): the value is there to run it again.
  EXPECT_EQ(
      sql1(d / "results/aerun.db", "SELECT value FROM run_params WHERE name='password' LIMIT 1"),
      "Pw_5ecret");
}

TEST(SecretsShown, AStatusReasonAndALogsNumbersNeverCarryASecret) {
  TempDir d;
  write_file(d / "l/a.log",
             "step 10 loss 0.5\nRuntimeError: NCCL error token=tok5ecret HF_TOKEN=hf_5ecret\n");
  write_file(d / "l/b.log", "step 10 loss 0.5 password 424242 api_key 987654\n");
  ASSERT_EQ(run_aerun(d, {"ingest", "l", "--case", "mine"}).code, 0);
  const auto runs = run_aerun(d, {"runs", "--format", "json"});
  EXPECT_THAT(runs.out, AllOf(Not(HasSubstr("5ecret")), HasSubstr("NCCL error token=")));
  EXPECT_THAT(runs.out, AllOf(Not(HasSubstr("424242")), Not(HasSubstr("987654"))));
  EXPECT_THAT(runs.out, HasSubstr("\"loss\""));
}

TEST(SecretsShown, AJobScriptThatExportsTheCasesEnvIsTheUsersOwn) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: sl\nparams: {x: [1]}\nenv: {PASSWORD: hunter2}\ncommand: echo {x}\n");
  const auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", "slurm", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  int scripts = 0;
  for (const auto& e : fs::directory_iterator(d / "results/logs/sl/jobs")) {
    struct stat st {};
    ASSERT_EQ(::stat(e.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 077, 0u) << e.path();  // no one else reads the exported secret
    ++scripts;
  }
  EXPECT_GT(scripts, 0);
}

TEST(LinksRead, PruneNeverCompressesAHardLinkPutAtALogPath) {
  // A hard link to a private file put at a run's log: `prune --compress` copied its bytes into
  // a .gz anyone could read.
  TempDir d;
  write_file(d / "c.yaml", "case: basic\nparams: {x: [1]}\ncommand: echo \"time 1\"\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string log = sql1(d / "results/aerun.db", "SELECT log_path FROM runs");
  write_file(d / "private.txt", "PRIVATE KEY material\n");
  fs::permissions(d / "private.txt", fs::perms::owner_read | fs::perms::owner_write);
  fs::remove(log);
  fs::create_hard_link(d / "private.txt", log);
  const auto r = run_aerun(d, {"prune", "--keep-logs", "0s", "--compress"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(log + ".gz"));
  EXPECT_EQ(read_file(d / "private.txt"), "PRIVATE KEY material\n");
  EXPECT_THAT(r.err, HasSubstr("aerun did not write"));
}

TEST(LinksRead, ExplainNeverReadsALinkPutAtALogAerunWrote) {
  TempDir d;
  write_file(d / "c.yaml", "case: basic\nparams: {x: [1]}\ncommand: echo \"time 1\"\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string log = sql1(d / "results/aerun.db", "SELECT log_path FROM runs");
  const std::string key = sql1(d / "results/aerun.db", "SELECT key FROM runs");
  write_file(d / "victim.txt", "db password 424242 loss 1 step 2\n");
  fs::remove(log);
  fs::create_symlink(d / "victim.txt", log);
  const auto r = run_aerun(d, {"show", key, "--explain"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("replaced by a link"));
  EXPECT_THAT(r.out, Not(HasSubstr("424242")));
}

TEST(OddBytesShown, TextOutputThroughAPipeAndErrorsShowEscapesAsText) {
  // `aerun show | cat`, a case's progress lines and an error quoting a value printed terminal
  // escapes raw (an OSC retitles the terminal, CSI 2J clears it): only a terminal was filtered.
  TempDir d;
  write_file(d / "c.yaml",
             "case: odd\nparams:\n  v: [\"\\e[2J\\e]0;TITLE\\aZ\"]\n"
             "command: echo \"time 1.5\"\n");
  const auto run = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string key = sql1(d / "results/aerun.db", "SELECT key FROM runs");
  const auto show = run_aerun(d, {"show", key});
  for (const std::string& out : {run.err, run.out, show.out}) {
    EXPECT_THAT(out, Not(HasSubstr("\x1b"))) << out;
    EXPECT_THAT(out, Not(HasSubstr("\a"))) << out;
  }
  EXPECT_THAT(show.out, HasSubstr("\\x1b[2J"));
  // A data format keeps the value's bytes: it is the value.
  EXPECT_THAT(run_aerun(d, {"runs", "--format", "csv"}).out, HasSubstr("\x1b[2J"));
  // An error quoting a refused value.
  write_file(d / "g.yaml",
             "case: g\nparams: {part: [\"gpu\\e]0;ERR\\a\"]}\nscheduler: slurm\n"
             "resources: {partition: \"{part}\"}\ncommand: echo\n");
  const auto bad = run_aerun(d, {"case", "g.yaml", "--dry-run"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, AllOf(HasSubstr("resources.partition"), Not(HasSubstr("\x1b"))));
  // A session label is one line of text: no control character.
  const auto label = run_aerun(d, {"case", "c.yaml", "--label", "night\x1b]0;LBL\a"});
  EXPECT_EQ(label.code, 2);
  EXPECT_THAT(label.err, HasSubstr("without control characters"));
}

TEST(BadPaths, EachIsAnErrorNamingItNeverAnInternalError) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: pd
params:
  cat: ["a", "b"]
command: echo "time 2.5"
metrics:
  t: 'time ([0-9.]+)'
tables:
  tb:
    rows: [cat]
    columns:
      - {metric: t}
plots:
  pl2: {table: tb, kind: line, x: cat, y: t}
)yaml");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  // A line over a text parameter: the case's mistake, at its place (was gnuplot's, exit 4).
  auto r = run_aerun(d, {"plot", "pl2", "--cases", "c.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("c.yaml:13:"), HasSubstr("plots.pl2.x")));
  // A store that is a device or a FIFO (SQLite left `/dev/null-journal` beside the device).
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  for (const std::string& db : std::vector<std::string>{"/dev/null", d / "fifo"}) {
    r = run_aerun(d, {"runs", "--db", db});
    EXPECT_EQ(r.code, 2) << db;
    EXPECT_THAT(r.err, HasSubstr("not a regular file")) << db;
  }
  // A file where the plots folder goes; a link loop given as a case file or a store.
  write_file(d / "results/plots", "notes\n");
  fs::create_symlink(d / "loop2", d / "loop1");
  fs::create_symlink(d / "loop1", d / "loop2");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"plot", "pl2", "--cases", "c.yaml"}, {"case", "loop1"}, {"runs", "--db", "loop1"}}) {
    r = run_aerun(d, args);
    EXPECT_EQ(r.code, 2) << args[0] << ": " << r.err;
    EXPECT_THAT(r.err, AllOf(HasSubstr("aerun: error: "), Not(HasSubstr("internal error"))))
        << args[0];
  }
}

TEST(Leftovers, AReaderThatGoesAwayNeverStopsTheRuns) {
  // `aerun case ... 2>&1 | head -1`: aerun died of SIGPIPE, its runs were left stale with empty
  // logs and the rest never started.
  TempDir d;
  write_file(d / "c.yaml",
             "case: sp\nparams: {x: [1, 2, 3]}\ncommand: echo \"time 1\"; sleep 0.3; echo done\n");
  const std::string cmd = "cd " + aerun::shell_quote(d.path().string()) + " && " +
                          aerun::shell_quote(AERUN_BINARY) +
                          " case c.yaml -j 2 2>&1 | head -c 1 >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  ASSERT_TRUE(eventually(
      [&] {
        return sql1(d / "results/aerun.db", "SELECT count(*) FROM runs WHERE status='ok'") == "3";
      },
      20));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs WHERE log_size > 0"), "3");
}

// The third pass (56 blind attempts on 1cb6211): what it still broke.

TEST(SecretsShownThirdPass, UrlCredentialsTokenShapesAndValuesInPathsAreRedacted) {
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: e
params:
  password: ["PW5ecret32"]
  url: ["https://bob:URL5ecret@hub.example/m"]
  gh: ["ghp_GH5ecretaaaaaaaaaaaaaaaaaaaaaaaaaaa"]
  auth_header: ["Bearer BEARER5ecret"]
rundir: "r/{password}"
command: "echo {password} {url}"
)yaml");
  const auto run = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string key = sql1(d / "results/aerun.db", "SELECT key FROM runs");
  std::string shown = run.out + run.err;
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"show", key}, {"runs", "--all-columns"}, {"runs", "--format", "json"}})
    shown += run_aerun(d, args).out;
  EXPECT_THAT(shown, Not(HasSubstr("5ecret"))) << shown;
  EXPECT_THAT(shown, HasSubstr("https://bob:<redacted"));
}

TEST(OddBytesShownThirdPass, ADryRunsPlanAndTheProgressLineOnATerminal) {
  TempDir d;
  write_file(d / "c.yaml", "case: odd\nparams:\n  v: [\"\\e]0;TITLE\\aZ\"]\ncommand: echo {v}\n");
  // The dry run's plan is a shell script (piped into bash, its values exact); on a terminal it is
  // shown as text (it went to C's stdout, past the filter).
  const std::string dry =
      "cd " + aerun::shell_quote(d.path().string()) + " && script -qec " +
      aerun::shell_quote(aerun::shell_quote(AERUN_BINARY) + " case c.yaml --dry-run") +
      " dry.txt >/dev/null 2>&1";
  ASSERT_EQ(std::system(dry.c_str()), 0);
  EXPECT_THAT(read_file(d / "dry.txt"), AllOf(Not(HasSubstr("\x1b]")), HasSubstr("\\x1b]0;TITLE")));
  // On a terminal (util-linux's script), aerun's own progress sequence is a sequence, not text.
  write_file(d / "p.yaml", "case: p\nparams: {x: [1, 2]}\ncommand: \"sleep 0.3; echo loss: 1\"\n");
  const std::string cmd = "cd " + aerun::shell_quote(d.path().string()) + " && script -qec " +
                          aerun::shell_quote(aerun::shell_quote(AERUN_BINARY) + " case p.yaml") +
                          " tty.txt >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string tty = read_file(d / "tty.txt");
  EXPECT_THAT(tty, HasSubstr("[aerun] p: 2 ok"));
  EXPECT_THAT(tty, Not(HasSubstr("\\x1b[K")));
}

TEST(BadPathsThirdPass, AnotherProgramsDatabaseAndADecadeLongWalltimeAreRefused) {
  TempDir d;
  ASSERT_EQ(std::system(("sqlite3 " + aerun::shell_quote(d / "bookmarks.sqlite") +
                         " 'CREATE TABLE bookmarks(url TEXT)'")
                            .c_str()),
            0);
  const std::string before = read_file(d / "bookmarks.sqlite");
  const auto r = run_aerun(d, {"runs", "--db", "bookmarks.sqlite"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("SQLite database of another program"));
  EXPECT_EQ(read_file(d / "bookmarks.sqlite"), before);
  EXPECT_FALSE(fs::exists(d / "bookmarks.sqlite-wal"));
  write_file(d / "w.yaml",
             "case: w\nparams: {x: [1]}\nscheduler: slurm\n"
             "resources: {walltime: 99999999999999999999d}\ncommand: echo {x}\n");
  const auto w = run_aerun(d, {"case", "w.yaml", "--dry-run"});
  EXPECT_EQ(w.code, 2);
  EXPECT_THAT(w.err, AllOf(HasSubstr("w.yaml:4:"), HasSubstr("longer than ten years")));
}

TEST(ForeignFilesThirdPass, ScratchNamesNeverRemoveAUsersFileOrFolder) {
  // A folder or file of the user's named like plot's or merge's scratch, with a dead pid in it,
  // was removed (its contents with it).
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: pd
params: {n: [1, 2]}
command: echo "time 2.5"
metrics: {t: 'time ([0-9.]+)'}
tables:
  tb: {rows: [n], columns: [{metric: t}]}
plots:
  f1: {table: tb, kind: line, x: n, y: t}
)yaml");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string host = command_output("hostname | tr -d '\\n'");
  const std::string folder = ".aerun-figure-" + host + "-999999-keepme";
  write_file(d / ("results/plots/" + folder + "/thesis.txt"), "mine\n");
  const auto p = run_aerun(d, {"plot", "f1", "--cases", "c.yaml"});
  EXPECT_EQ(p.code, 0) << p.err;
  EXPECT_EQ(read_file(d / ("results/plots/" + folder + "/thesis.txt")), "mine\n");
  const std::string scratch = ".aerun-merge-" + host + "-999999.db";
  write_file(d / ("results/" + scratch), "my own notes\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "other.db"}).code, 0);
  const auto m = run_aerun(d, {"merge", "other.db", "--into", "results/aerun.db"});
  EXPECT_EQ(m.code, 0) << m.err;
  EXPECT_EQ(read_file(d / ("results/" + scratch)), "my own notes\n");
}

TEST(ForeignFilesThirdPass, ARunFolderHoldingAStoreIsNeverEmptied) {
  // A run folder is emptied before each attempt: the case's own store kept in it (`--db R/own.db`)
  // was deleted while the case said "1 ok"; another store kept there went with the emptying.
  TempDir d;
  write_file(d / "c.yaml", "case: c6\nparams: {x: [1]}\nrundir: R\ncommand: \"echo loss: 1\"\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "s.db"}).code, 0);  // makes R, aerun's
  auto r = run_aerun(d, {"case", "c.yaml", "--db", "R/own.db"});
  EXPECT_EQ(r.code, 4);
  EXPECT_THAT(r.err, HasSubstr("holds the store's folder"));
  EXPECT_TRUE(fs::exists(d / "R/own.db"));
  // Another store, closed, kept in the run folder: the folder is not emptied.
  fs::remove(d / "R/own.db");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--db", "elsewhere.db"}).code, 0);
  fs::copy_file(d / "elsewhere.db", d / "R/kept.db");
  r = run_aerun(d, {"case", "c.yaml", "--db", "s.db", "--force"});
  EXPECT_THAT(r.err + r.out, HasSubstr("holds the aerun store"));
  EXPECT_TRUE(fs::exists(d / "R/kept.db"));
}
