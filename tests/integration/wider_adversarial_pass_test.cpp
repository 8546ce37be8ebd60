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
