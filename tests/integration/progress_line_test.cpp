// Progress lines of long commands (issue 17): on a terminal (a pty from script(1)) `ingest` and
// `table` say what they are doing on one line, redrawn in place and erased before their output;
// without a terminal they print nothing of it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// What `aerun ARGS` writes to a terminal (stdout and stderr both), run under script(1).
std::string on_a_terminal(const TempDir& d, const std::string& args) {
  const std::string cmd =
      "cd " + aerun::shell_quote(d.path().string()) + " && AERUN_PROGRESS_AFTER=0 script -qec " +
      aerun::shell_quote(aerun::shell_quote(AERUN_BINARY) + " " + args) + " /dev/null";
  return command_output(cmd);
}

void many_logs(const TempDir& d, int n) {
  fs::create_directories(d / "logs");
  const std::string log =
      read_file(std::string(AERUN_FIXTURES) + "/logs/fixture_megatron_iterations.log");
  for (int i = 0; i < n; ++i) write_file(d / ("logs/m" + std::to_string(i) + ".log"), log);
}

}  // namespace

TEST(ProgressLine, IngestShowsHowManyFilesAreReadOnATerminalThenItsOwnOutput) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1)";
  TempDir d;
  many_logs(d, 60);
  const std::string out = on_a_terminal(d, "ingest logs --case ing --preset megatron -j 1");
  EXPECT_THAT(out, HasSubstr("\r\x1b[K[aerun] ingest ing: reading "));
  EXPECT_THAT(out, HasSubstr("/60 files"));
  // Erased before the command's own lines: the first of them starts a clean line.
  EXPECT_THAT(out, HasSubstr(" files\r\x1b[Kadded     ")) << "the progress line was not erased";
  EXPECT_THAT(out, HasSubstr("case ing: 60 files: 60 added, 0 updated, 0 unchanged, 0 skipped"));
  // No terminal: no progress line at all.
  const auto plain = run_aerun(d, {"ingest", "logs", "--case", "ing2", "--preset", "megatron"},
                               "AERUN_PROGRESS_AFTER=0");
  EXPECT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.err.find('\x1b'), std::string::npos);
  EXPECT_THAT(plain.err, Not(HasSubstr("[aerun] ingest")));
}

TEST(ProgressLine, TableSaysWhichStepIsUnderWayAndErasesItBeforeTheTable) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1)";
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: pt
params: {x: [1, 2]}
command: echo "v={x}"
metrics: {v: 'v=(\d+)'}
tables:
  ptab: {rows: [x], columns: [v]}
)yaml");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const std::string out = on_a_terminal(d, "table ptab --cases c.yaml");
  EXPECT_THAT(out, HasSubstr("[aerun] table ptab: reading the runs of case pt…"));
  EXPECT_THAT(out, HasSubstr("[aerun] table ptab: 2 runs read, building the rows…"));
  EXPECT_THAT(out, HasSubstr("rows…\r\x1b[K### ptab\r\n"));  // erased, then the table
  EXPECT_THAT(out, HasSubstr("| x | v |"));
}
