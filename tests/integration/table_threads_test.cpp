// `aerun table -j N` (issue 12): threads read a large case in parts, each through its own
// connection, and the table is byte for byte the one a single reader makes, in every format.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(TableThreads, ATableReadByAnyNumberOfThreadsIsTheOneReadByOne) {
  TempDir d;
  // 3 x 2 points, 4 repeats; one point always fails; a first version left one run behind.
  const std::string head =
      "case: tt\nrepeat: 4\nparams: {x: [1, 2, 3], y: [a, b]}\n"
      "metrics: {t: 'time=([0-9.]+)'}\n"
      "tables:\n  tt:\n    rows: [x]\n    columns: [{metric: t, agg: mean}, {metric: t, agg: "
      "first, label: first}, {metric: t, agg: last, label: last}, {metric: t, agg: median, "
      "label: med}, y]\n    reference:\n      - {x: 2, t: 21}\n";
  write_file(d / "c.yaml", head + "command: echo time={x}{repeat}.25\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml", "--only", "x=1", "--only", "y=a"}).code, 0);
  write_file(d / "c.yaml",
             head + "command: '[ {x}{y} != 3b ] || exit 1; echo time={x}{repeat}.5'\n");
  auto r = run_aerun(d, {"case", "c.yaml"});
  ASSERT_EQ(r.code, 1) << r.err;  // the failing point
  for (const std::string format : {"md", "csv", "json"}) {
    const auto one =
        run_aerun(d, {"table", "tt", "--cases", "c.yaml", "--format", format, "-j", "1"});
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_THAT(one.err, HasSubstr("4 run(s) of earlier versions of the case left out"));
    for (const std::string threads : {"2", "3", "7", "24"}) {
      const auto many =
          run_aerun(d, {"table", "tt", "--cases", "c.yaml", "--format", format, "-j", threads});
      ASSERT_EQ(many.code, 0) << many.err;
      EXPECT_EQ(many.out, one.out) << format << " with " << threads << " threads";
      EXPECT_EQ(many.err, one.err);
    }
  }
  const auto csv = run_aerun(d, {"table", "tt", "--cases", "c.yaml", "--format", "csv"});
  EXPECT_THAT(csv.out, HasSubstr("\n3,"));
  EXPECT_THAT(csv.out, HasSubstr("a/b"));  // the parameter column of rows 1 and 2
  EXPECT_EQ(run_aerun(d, {"table", "tt", "--cases", "c.yaml", "-j", "0"}).code, 2);  // refused
}
