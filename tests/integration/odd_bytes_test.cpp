// Issue 40, class 4: bytes that are not text. A log line with invalid UTF-8 becomes a status
// reason, and `runs --format json` was then invalid JSON; a `%` in a bar's category made gnuplot
// read it as a format, and `plot` exit 4 with no figure.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(OddBytes, RunsAsJsonStaysValidWhenAReasonHoldsBytesThatAreNotUtf8) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: odd\ncommand: printf 'CUDA out of memory \\377\\376 at step 3\\n'; exit 1\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 1);
  auto r = run_aerun(d, {"runs", "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  write_file(d / "runs.json", r.out);
  // Python's json (RFC 8259) reads it; surrogateescape gives the log's bytes back.
  const std::string back = command_output(
      "python3 -c 'import json,sys; rows=json.load(open(sys.argv[1], encoding=\"utf-8\")); "
      "print(rows[0][\"reason\"].encode(\"utf-8\", \"surrogateescape\").hex())' " +
      aerun::shell_quote(d / "runs.json"));
  EXPECT_THAT(back, HasSubstr("fffe"));  // the bytes \377\376, as the log had them
}

TEST(OddBytes, APercentInABarsCategoryIsDrawnAsItIs) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no gnuplot";
  TempDir d;
  write_file(d / "c.yaml", R"yaml(case: pct
params: {sparsity: ['50%', '90% pruned']}
command: echo time=1.5
metrics: {t: 'time=([0-9.]+)'}
tables:
  pt:
    rows: [sparsity]
    columns: [{metric: t, agg: mean}]
plots:
  pp: {table: pt, kind: bars, x: sparsity, y: t}
)yaml");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const auto r = run_aerun(d, {"plot", "pp", "--cases", "c.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(read_file(d / "results/plots/pp.svg"), HasSubstr("50%"));
}
