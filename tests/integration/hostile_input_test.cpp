// Hostile names and inputs (issue 16): one case-name rule everywhere; ingest refuses what it
// could never finish reading.
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <iostream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(HostileInput, CaseNamesThatNameFoldersOrHoldControlCharactersAreRefusedEverywhere) {
  TempDir d;
  for (const char* name : {"..", "."}) {
    write_file(d / "c.yaml", std::string("case: \"") + name + "\"\ncommand: echo hi\n");
    const auto r = run_aerun(d, {"case", "c.yaml"});
    EXPECT_EQ(r.code, 2) << name;
    EXPECT_THAT(r.err, HasSubstr("c.yaml:1:7: case: case names are made of [A-Za-z0-9_.-] and are "
                                 "not . or .."));
  }
  fs::create_directories(d / "logs");
  write_file(d / "logs/a.log", " iteration 1/ 1 |\n");
  for (const std::string& name : {std::string(".."), std::string("a\nb"), std::string("it's")}) {
    const auto r = run_aerun(d, {"ingest", "logs", "--case", name, "--preset", "megatron"});
    EXPECT_EQ(r.code, 2) << name;
    EXPECT_THAT(r.err, HasSubstr("--case: case names are made of"));
  }
  EXPECT_FALSE(fs::exists(d / "results/aerun.db"));  // nothing stored
}

TEST(HostileInput, IngestRefusesDevicesAndFifosInsteadOfReadingForever) {
  TempDir d;
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), std::string(d / "fifo")}) {
    const auto r = run_aerun(d, {"ingest", path, "--case", "x", "--preset", "megatron"});
    EXPECT_EQ(r.code, 2) << path;
    EXPECT_THAT(r.err, HasSubstr("not a regular file"));
  }
  // Issue 28: /proc's files are "regular" and some block forever (/proc/kmsg): refused by the
  // file system they are on, as every /proc and /sys file is.
  const auto r =
      run_aerun(d, {"ingest", "/proc/self/status", "--case", "x", "--preset", "megatron"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("a kernel interface (/proc, /sys, ...), not a log"));
  EXPECT_FALSE(fs::exists(d / "results/aerun.db"));  // refused before a store was made
}

TEST(HostileInput, ALinkToAKernelInterfaceInsideAnIngestedFolderIsSkippedNamingIt) {
  // Issue 40: `ingest logs/` stored /proc/self/environ (the process's environment, secrets
  // included) through a link in the folder.
  TempDir d;
  fs::create_directories(d / "logs");
  write_file(d / "logs/a.log",
             " iteration        1/       2 | elapsed time per iteration (ms): 10.0 |\n");
  fs::create_symlink("/proc/self/environ", d / "logs/env.log");
  const auto r = run_aerun(d, {"ingest", "logs", "--case", "x", "--preset", "megatron"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out + r.err, HasSubstr("a link to a kernel interface"));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs"), "1");
  EXPECT_THAT(sql1(d / "results/aerun.db", "SELECT log_path FROM runs"), HasSubstr("a.log"));
}

TEST(HostileInput, APbsNodefileThatIsADeviceIsRefusedNamingIt) {
  // Issue 40: PBS_NODEFILE=/dev/zero read until memory ran out (bad_alloc, exit 3).
  TempDir d;
  write_file(d / "c.yaml", "case: pbsz\ncommand: echo hi\n");
  const auto r =
      run_aerun(d, {"env", "--scheduler", "pbs"}, "PBS_NODEFILE=/dev/zero PBS_JOBID=1.x");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("/dev/zero"));
  EXPECT_THAT(r.err, HasSubstr("not a regular file"));
}

TEST(HostileInput, ANewlineInTheCaseFilesPathRunsNoCodeFromADryRunOrAJobScript) {
  TempDir d;
  const std::string file = d / "cf\ntouch pwned\n#.yaml";
  write_file(file, "case: nl\nparams: {x: [1]}\ncommand: echo {x}\n");
  // The dry run is shell-ready: piped into bash it runs the commands and nothing else.
  auto r = run_aerun(d, {"case", file, "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  write_file(d / "dry.sh", r.out);
  EXPECT_EQ(
      std::system(
          ("cd " + aerun::shell_quote(d.path().string()) + " && bash dry.sh >/dev/null").c_str()),
      0);
  EXPECT_FALSE(fs::exists(d / "pwned"));
  EXPECT_THAT(r.out, HasSubstr("cf\\x0atouch pwned\\x0a#.yaml"));
  // The job script's header comment holds the path on one line too.
  r = run_aerun(d, {"case", file, "--scheduler", "slurm", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& e : fs::recursive_directory_iterator(d / "results"))
    if (e.path().extension() == ".sbatch") {
      const std::string script = read_file(e.path());
      EXPECT_THAT(script, Not(HasSubstr("\ntouch pwned")));
      EXPECT_THAT(script, HasSubstr("cf\\x0atouch pwned\\x0a#.yaml"));
    }
}

TEST(HostileInput, TerminalEscapeSequencesInValuesAreShownEscapedNotSentToTheTerminal) {
  TempDir d;
  write_file(d / "c.yaml", "case: esc\nparams: {tag: [\"\\e[31mred\\e[0m\"]}\ncommand: echo hi\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const auto r = run_aerun(d, {"runs"});
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_THAT(r.out, HasSubstr("\\x1b[31mred\\x1b[0m"));
}

TEST(HostileInput, ASweepOfTenBillionPointsIsRefusedAtOnceWithItsSize) {
  TempDir d;
  // 139 bytes: ten parameters aliasing one ten-value list.
  std::string yaml = "case: huge\nparams:\n  a: &v [0,1,2,3,4,5,6,7,8,9]\n";
  for (const char* n : {"b", "c", "d", "e", "f", "g", "h", "i", "j"})
    yaml += std::string("  ") + n + ": *v\n";
  write_file(d / "huge.yaml", yaml + "command: echo {a}\n");
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, {"--dry-run"}, {"--only", "a=1"}}) {
    std::vector<std::string> args{"case", "huge.yaml"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_aerun(d, args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("huge.yaml:3:3: params: the sweep plans 10000000000 points "
                                 "before exclude:, more than the 100000000 runs a case may plan"));
  }
  EXPECT_FALSE(fs::exists(d / "results/aerun.db"));  // refused before anything was stored
}

// The hostile-input corpus (tests/fixtures/hostile/cases/, plus generated ones too large to keep):
// every file is either planned or refused with an error naming it — never a crash, a hang or
// unbounded memory. Each runs under a 30 s timeout and, outside sanitizer builds (whose shadow
// memory needs terabytes of address space), a 1 GiB address-space limit.
TEST(HostileInput, NoCaseFileOfTheCorpusCrashesHangsOrExhaustsMemory) {
  const std::string limit = kAddressSanitizer ? "" : "ulimit -v 1048576; ";
  TempDir d;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(std::string(AERUN_FIXTURES) + "/hostile/cases"))
    files.push_back(e.path().string());
  // Generated: a 97 MB list of 7 M values (once 6 GB and 165 s), a FIFO, a device.
  {
    std::ofstream big(d / "big.yaml");
    big << "case: big\nparams:\n  x:\n";
    for (int i = 0; i < 7'000'000; ++i) big << "    - " << i << "\n";
    big << "command: echo {x}\n";
  }
  files.push_back(d / "big.yaml");
  ASSERT_EQ(::mkfifo((d / "fifo.yaml").c_str(), 0600), 0);
  files.push_back(d / "fifo.yaml");
  files.push_back("/dev/zero");
  std::sort(files.begin(), files.end());
  int planned = 0, refused = 0, other = 0;
  for (const auto& f : files) {
    const std::string cmd = "cd " + aerun::shell_quote(d.path().string()) + " && (" + limit +
                            "timeout -s KILL 30 " + aerun::shell_quote(AERUN_BINARY) + " case " +
                            aerun::shell_quote(f) + " --dry-run >out.txt 2>err.txt)";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << f;
    const int code = WEXITSTATUS(status);
    const std::string err = read_file(d / "err.txt");
    EXPECT_TRUE(code == 0 || code == 2) << f << ": exit " << code << "\n" << err.substr(0, 2000);
    if (code == 2) {
      ++refused;
      EXPECT_EQ(err.rfind("aerun: error: " + f, 0), 0u) << f << ": " << err.substr(0, 500);
    } else if (code == 0) {
      ++planned;
    } else {
      ++other;
    }
  }
  EXPECT_GE(planned + refused, 48);
  std::cout << files.size() << " hostile case files: " << planned << " planned, " << refused
            << " refused, " << other << " crashed, hung or ran out of memory\n";
}

// Issue 28: what aerun writes to a real terminal (a pty, through script(1)) holds no escape
// sequence of a case, a log's file name or a store: the show reason, values and units, ingest's
// file names, table titles. The payload sets the terminal's title and clears the screen.
TEST(HostileInput, NoEscapeSequenceFromACaseALogsNameOrAStoreReachesATerminal) {
  TempDir d;
  const std::string esc = "\\e]0;PWN\\a\\e[2J";  // as YAML writes it
  write_file(d / "c.yaml", "case: tty\ntitle: \"" + esc + "\"\nparams: {tag: [\"" + esc +
                               "\"]}\ncommand: echo 'v=1'\nmetrics:\n  v: {regex: 'v=([0-9]+)', "
                               "unit: \"" +
                               esc + "\"}\ntables:\n  t:\n    title: \"" + esc +
                               "\"\n    rows: [tag]\n    columns: [{metric: v}]\n");
  fs::create_directories(d / "logs");
  write_file(d / "logs/\x1b]0;PWN\x07\x1b[2J.log", " iteration        1/       1 |\n");
  auto in_terminal = [&](const std::string& args) {
    return command_output("cd " + aerun::shell_quote(d.path().string()) + " && script -qec " +
                          aerun::shell_quote(aerun::shell_quote(AERUN_BINARY) + " " + args) +
                          " /dev/null");
  };
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1)";
  std::string all = in_terminal("case c.yaml");
  const std::string key = sql1(d / "results/aerun.db", "SELECT key FROM runs");
  ASSERT_FALSE(key.empty()) << all;
  for (const std::string& args :
       {"show " + key.substr(0, 8), std::string("runs"), std::string("table t --cases c.yaml"),
        std::string("ingest logs --case other --preset megatron"),
        std::string("runs --case other")})
    all += in_terminal(args);
  EXPECT_EQ(all.find("\x1b]0;PWN"), std::string::npos) << all;
  EXPECT_EQ(all.find("\x1b[2J"), std::string::npos) << all;
  EXPECT_THAT(all, HasSubstr("\\x1b]0;PWN\\x07"));
}
