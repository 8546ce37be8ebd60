// `aerun regress` on synthetic sessions with known shifts, and the statistics under it.
#include "aerun/report/regress.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "report/mann_whitney.hpp"

using namespace aerun;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// A session's runs of case "nightly": for each value, one repeat of point hidden=64 with metric
// iter_ms (ms) and throughput (samples/s) = 1000 / iter_ms.
SessionRuns session(const std::string& label, const std::vector<double>& iter_ms,
                    const std::string& status = "ok", const std::string& hidden = "64") {
  SessionRuns s{label, {}};
  for (size_t i = 0; i < iter_ms.size(); ++i) {
    RunRecord r;
    r.case_name = "nightly";
    r.params = {{"hidden", Value::parse(hidden)}};
    r.repeat_index = static_cast<int>(i);
    r.status = status;
    if (status == "ok") {
      r.metrics.push_back({"iter_ms", iter_ms[i], "ms", 1, 0});
      r.metrics.push_back({"throughput", 1000 / iter_ms[i], "samples/s", 1, 0});
    }
    s.runs.push_back(r);
  }
  return s;
}

std::vector<double> noisy(double center, double spread, int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(-spread, spread);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(center * (1 + d(gen)));
  return v;
}

const RegressRow& row(const std::vector<RegressRow>& rows, const std::string& metric) {
  for (const auto& r : rows)
    if (r.metric == metric) return r;
  throw std::runtime_error("no row for " + metric);
}

std::vector<RegressRow> compare(const SessionRuns& base, const SessionRuns& cur,
                                RegressOptions o = {}) {
  return compare_case("nightly", nullptr, {base}, cur, o);
}

}  // namespace

TEST(MannWhitney, ExactTailsOfCompletelySeparatedSamples) {
  // 3 vs 3: 1 arrangement of C(6,3) = 20 puts every a above every b.
  EXPECT_NEAR(mann_whitney_greater({4, 5, 6}, {1, 2, 3}), 1.0 / 20, 1e-12);
  EXPECT_NEAR(mann_whitney_greater({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}), 1.0 / 252, 1e-12);
  EXPECT_NEAR(mann_whitney_greater({1, 2, 3}, {4, 5, 6}), 1.0, 1e-12);
}

TEST(MannWhitney, ExactTailMatchesTheCountedDistribution) {
  // a = {2, 5}, b = {1, 3, 4}: U = 1 + 3 = 4; of the C(5,2) = 10 arrangements, U >= 4 in 4
  // (U = 4: {2,5},{3,4}; U = 5: {3,5}; U = 6: {4,5}).
  EXPECT_DOUBLE_EQ(mann_whitney_u({2, 5}, {1, 3, 4}), 4);
  EXPECT_NEAR(mann_whitney_greater({2, 5}, {1, 3, 4}), 4.0 / 10, 1e-12);
}

TEST(MannWhitney, TiesUseTheNormalApproximation) {
  const double p = mann_whitney_greater({30, 30, 30, 30, 30}, {20, 20, 20, 20, 20});
  EXPECT_GT(p, 0.001);
  EXPECT_LT(p, 0.01);
  EXPECT_DOUBLE_EQ(mann_whitney_greater({1, 1}, {1, 1}), 1.0);  // no variance: no evidence
  EXPECT_DOUBLE_EQ(mann_whitney_greater({}, {1}), 1.0);
}

TEST(Regress, AThirtyPercentSlowdownWithFiveRepeatsIsRegressed) {
  const auto rows =
      compare(session("night1", noisy(100, 0.02, 5, 1)), session("night2", noisy(130, 0.02, 5, 2)));
  const RegressRow& r = row(rows, "iter_ms");
  EXPECT_EQ(r.verdict, RegressVerdict::Regressed);
  EXPECT_EQ(r.better, Better::Lower);
  EXPECT_NEAR(*r.change, 0.30, 0.05);
  EXPECT_LT(*r.p_value, 0.01);
  EXPECT_EQ(row(rows, "throughput").verdict,
            RegressVerdict::Regressed);  // higher is better: it fell
}

TEST(Regress, TenPercentNoiseWithFiveRepeatsIsNotARegression) {
  for (unsigned seed = 0; seed < 50; ++seed) {
    const auto rows = compare(session("night1", noisy(100, 0.10, 5, seed)),
                              session("night2", noisy(100, 0.10, 5, seed + 1000)));
    EXPECT_NE(row(rows, "iter_ms").verdict, RegressVerdict::Regressed) << "seed " << seed;
    EXPECT_NE(row(rows, "iter_ms").verdict, RegressVerdict::Improved) << "seed " << seed;
  }
}

TEST(Regress, OneRepeatWithAThirtyPercentShiftIsNoisyNotAVerdict) {
  const auto rows = compare(session("night1", {100}), session("night2", {130}));
  EXPECT_EQ(row(rows, "iter_ms").verdict, RegressVerdict::Noisy);
  EXPECT_THAT(row(rows, "iter_ms").note, HasSubstr("--min-repeats"));
}

TEST(Regress, AFasterNightIsImprovedAndASmallChangeUnchanged) {
  EXPECT_EQ(row(compare(session("a", noisy(100, 0.01, 5, 3)), session("b", noisy(70, 0.01, 5, 4))),
                "iter_ms")
                .verdict,
            RegressVerdict::Improved);
  EXPECT_EQ(row(compare(session("a", noisy(100, 0.01, 5, 3)), session("b", noisy(104, 0.01, 5, 4))),
                "iter_ms")
                .verdict,
            RegressVerdict::Unchanged);
}

TEST(Regress, APointThatFailsTonightButPassedIsNewlyFailingWhateverItsNumbers) {
  const auto rows = compare(session("a", {100, 101, 99}), session("b", {0, 0, 0}, "oom"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].verdict, RegressVerdict::NewlyFailing);
  EXPECT_EQ(rows[0].metric, "");
  EXPECT_THAT(rows[0].note, HasSubstr("3 oom"));
}

TEST(Regress, FixedFailingMissingAndNewPoints) {
  EXPECT_EQ(compare(session("a", {1}, "failed"), session("b", {100, 100, 100}))[0].verdict,
            RegressVerdict::Fixed);
  EXPECT_EQ(compare(session("a", {1}, "failed"), session("b", {1}, "timeout"))[0].verdict,
            RegressVerdict::Failing);
  auto base = session("a", {100, 100, 100});
  auto more = session("a", {100, 100, 100}, "ok", "128");
  base.runs.insert(base.runs.end(), more.runs.begin(), more.runs.end());
  auto rows = compare(base, session("b", {100, 100, 100}));
  EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [](const RegressRow& r) {
    return r.point == "hidden=128" && r.verdict == RegressVerdict::Missing;
  }));
  rows = compare(session("a", {100, 100, 100}), base);
  EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [](const RegressRow& r) {
    return r.point == "hidden=128" && r.verdict == RegressVerdict::New;
  }));
}

TEST(Regress, BestOfNComparesWithTheBestBaselineSession) {
  const std::vector<SessionRuns> bases = {session("n1", noisy(80, 0.01, 5, 5)),
                                          session("n2", noisy(100, 0.01, 5, 6)),
                                          session("n3", noisy(101, 0.01, 5, 7))};
  const auto rows =
      compare_case("nightly", nullptr, bases, session("n4", noisy(100, 0.01, 5, 8)), {});
  const RegressRow& r = row(rows, "iter_ms");
  EXPECT_EQ(r.base_session, "n1");  // the fastest night
  EXPECT_EQ(r.verdict, RegressVerdict::Regressed);
}

TEST(Regress, TheToleranceAndMinRepeatsAreTheUsers) {
  RegressOptions o;
  o.tolerance = 0.5;
  EXPECT_EQ(
      row(compare(session("a", noisy(100, 0.01, 5, 1)), session("b", noisy(130, 0.01, 5, 2)), o),
          "iter_ms")
          .verdict,
      RegressVerdict::Unchanged);
  o = {};
  o.min_repeats = 1;
  o.metrics = {"iter_ms"};
  const auto rows = compare(session("a", {100, 101}), session("b", {130, 131}), o);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].verdict,
            RegressVerdict::Noisy);  // 2 vs 2 can never reach p <= 0.05 (best: 1/6)
}

TEST(Regress, DirectionsFromTheDeclarationTheUnitOrTheName) {
  EXPECT_EQ(metric_direction("x", "ms"), Better::Lower);
  EXPECT_EQ(metric_direction("x", "samples/s"), Better::Higher);
  EXPECT_EQ(metric_direction("x", "TFLOP/s"), Better::Higher);
  EXPECT_EQ(metric_direction("tflops_per_gpu", ""), Better::Higher);
  EXPECT_EQ(metric_direction("startup_s", ""), Better::Lower);
  EXPECT_EQ(metric_direction("lm_loss", ""), Better::Lower);
  EXPECT_EQ(metric_direction("accuracy", "", "higher"), Better::Higher);
  EXPECT_EQ(metric_direction("iteration", ""), Better::Unknown);
}

TEST(Regress, JunitHasATestcasePerRowAndAFailureWithTheNumbersPerRegression) {
  RegressReport rep;
  rep.baseline = "night1";
  rep.current = "night2";
  rep.rows =
      compare(session("night1", noisy(100, 0.02, 5, 1)), session("night2", noisy(130, 0.02, 5, 2)));
  const std::string x = render_regress_junit(rep);
  EXPECT_THAT(x, HasSubstr("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
  EXPECT_THAT(x, HasSubstr("tests=\"2\" failures=\"2\""));
  EXPECT_THAT(x, HasSubstr("<testcase classname=\"nightly\" name=\"hidden=64 :: iter_ms\""));
  EXPECT_THAT(x, HasSubstr("<failure type=\"regressed\" message=\"iter_ms regressed: "));
  EXPECT_THAT(x, HasSubstr("baseline night1: "));
  size_t open = 0, close = 0;
  for (size_t p = 0; (p = x.find("<testcase", p)) != std::string::npos; ++p) ++open;
  for (size_t p = 0; (p = x.find("</testcase>", p)) != std::string::npos; ++p) ++close;
  EXPECT_EQ(open, 2u);
  EXPECT_EQ(close, 2u);
  EXPECT_TRUE(rep.failed());
}

TEST(Regress, MarkdownCountsTheVerdictsAndListsWhatChanged) {
  RegressReport rep;
  rep.baseline = "night1";
  rep.current = "night2";
  rep.rows =
      compare(session("night1", noisy(100, 0.02, 5, 1)), session("night2", noisy(130, 0.02, 5, 2)));
  const std::string md = render_regress_markdown(rep);
  EXPECT_THAT(md, HasSubstr("### aerun regress: night2 against night1"));
  EXPECT_THAT(md, HasSubstr("2 regressed (2 compared)."));
  EXPECT_THAT(md, HasSubstr("| nightly | hidden=64 | iter_ms | "));
  EXPECT_THAT(md, HasSubstr("| **regressed** |"));
  const std::string json = render_regress_json(rep);
  EXPECT_THAT(json, HasSubstr("\"failed\": true"));
  EXPECT_THAT(json, HasSubstr("\"verdict\": \"regressed\""));
}

TEST(Regress, OneSystemAgainstAnotherComparesEachPointWithTheBaseSystemsRuns) {
  // A night on Polaris (100 ms) and, merged beside it, one on Aurora (130 ms): `--baseline
  // system=polaris` says Aurora's point is slower; Polaris's own runs are the baseline, never
  // judged.
  auto on = [](SessionRuns s, const std::string& system) {
    for (auto& r : s.runs) r.system = system;
    return s;
  };
  const SessionRuns polaris = on(session("night1", noisy(100, 0.02, 5, 1)), "polaris");
  SessionRuns night = on(session("night1@beta", noisy(130, 0.02, 5, 2)), "aurora");
  for (const auto& r : polaris.runs) night.runs.push_back(r);  // left out: the base system's
  const auto rows = compare_with_system("c", nullptr, polaris, "polaris", night, RegressOptions{});
  int iter_rows = 0;
  for (const auto& r : rows)
    if (r.metric == "iter_ms") {
      ++iter_rows;
      EXPECT_EQ(r.verdict, RegressVerdict::Regressed) << r.point;
      EXPECT_THAT(r.point, HasSubstr("on aurora"));
      EXPECT_EQ(r.base_n, 5);
    }
  EXPECT_EQ(iter_rows, 1);
  EXPECT_TRUE(
      compare_with_system("c", nullptr, SessionRuns{}, "perlmutter", night, RegressOptions{})
          .empty());
}

TEST(Regress, EachSystemIsComparedWithItselfNeverWithAnotherMachine) {
  // Polaris stays at 100 ms; Aurora, at 130 ms in both nights, is no regression of Polaris.
  auto on = [](SessionRuns s, const std::string& system) {
    for (auto& r : s.runs) r.system = system;
    return s;
  };
  SessionRuns base = on(session("night1", noisy(100, 0.02, 5, 1)), "polaris");
  SessionRuns cur = on(session("night2", noisy(100, 0.02, 5, 2)), "polaris");
  for (const auto& r : on(session("night1", noisy(130, 0.02, 5, 3)), "aurora").runs)
    base.runs.push_back(r);
  for (const auto& r : on(session("night2", noisy(130, 0.02, 5, 4)), "aurora").runs)
    cur.runs.push_back(r);
  const auto rows = compare(base, cur);
  int iter_rows = 0;
  for (const auto& r : rows)
    if (r.metric == "iter_ms") {
      ++iter_rows;
      EXPECT_EQ(r.verdict, RegressVerdict::Unchanged) << r.point;
      EXPECT_EQ(r.base_n, 5) << r.point;
    }
  EXPECT_EQ(iter_rows, 2);
  EXPECT_THAT(rows[0].point + rows.back().point,
              testing::AllOf(HasSubstr("hidden=64 on polaris"), HasSubstr("hidden=64 on aurora")));
}
