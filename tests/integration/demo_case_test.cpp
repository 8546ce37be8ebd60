// The shipped demo case, run for real: a sweep of the CPU training workload, stored and tabulated.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(DemoCase, OneWidthRunsForRealAndItsTableRowComesBack) {
  TempDir d;
  const std::string demo = std::string(AERUN_CASES_DIR) + "/demo.yaml";
  const std::string env = "AERUN_DEMO_TRAIN=" + aerun::shell_quote(AERUN_DEMO_TRAIN);
  const auto r = run_aerun(d, {"case", demo, "--only", "hidden=128", "--only", "repeat=0"}, env);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "results/aerun.db";
  EXPECT_EQ(sql1(db, "SELECT status FROM runs"), "ok");
  // A real training loop: iteration time measured, loss logged every interval, startup seen.
  EXPECT_GT(std::stod(sql1(db, "SELECT value FROM metrics WHERE name='iter_ms'")), 0.0);
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM series WHERE metric='loss_curve'"), "12");
  EXPECT_GT(std::stod(sql1(db, "SELECT startup_s FROM runs")), 0.0);
  EXPECT_LT(std::stod(sql1(db, "SELECT value FROM series WHERE metric='loss_curve' AND idx=11")),
            std::stod(sql1(db, "SELECT value FROM series WHERE metric='loss_curve' AND idx=0")));
  const auto t = run_aerun(d, {"table", "demo", "--cases", AERUN_CASES_DIR});
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_THAT(t.out, HasSubstr("| 128 |"));
  EXPECT_THAT(t.out, HasSubstr("| 192 | missing"));
}
