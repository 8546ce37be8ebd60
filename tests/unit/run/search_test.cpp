// The bisection of search sweeps: which values are probed, in which order, and what is found.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "aerun/run/bisection.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

// min, min+step, ... up to max (what `search: {min, max, step}` gives).
std::vector<long long> range(long long min, long long max, long long step = 1) {
  std::vector<long long> v;
  for (long long x = min; x <= max; x += step) v.push_back(x);
  return v;
}

// Runs the search to its end, asking the oracle for every probe.
Bisection search(std::vector<long long> candidates, const std::function<bool(long long)>& ok) {
  Bisection b(std::move(candidates));
  while (const auto v = b.next()) b.record({*v, ok(*v), ok(*v) ? "ok" : "oom"});
  return b;
}

std::vector<long long> probed(const Bisection& b) {
  std::vector<long long> v;
  for (const auto& p : b.probes()) v.push_back(p.value);
  return v;
}

auto fits(long long limit) {
  return [limit](long long layers) { return layers <= limit; };
}

TEST(Bisection, FindsTheLargestOkValueProbingMinFirstThenHalving) {
  // Fig. 6a, L2L: trains up to 78 layers of 16..128.
  const Bisection b = search(range(16, 128), fits(78));
  EXPECT_THAT(probed(b), ElementsAre(16, 72, 100, 86, 79, 75, 77, 78));
  EXPECT_EQ(b.result(), 78);
  EXPECT_TRUE(b.done());
  EXPECT_FALSE(b.at_end());
  EXPECT_THAT(b.warnings(), IsEmpty());
}

TEST(Bisection, NeverProbesMoreThanOnePlusLog2OfTheCandidates) {
  EXPECT_EQ(Bisection::max_probes(1), 1);
  EXPECT_EQ(Bisection::max_probes(2), 2);
  EXPECT_EQ(Bisection::max_probes(5), 4);
  EXPECT_EQ(Bisection::max_probes(113), 8);
  for (long long limit = 16; limit <= 128; ++limit) {
    const Bisection b = search(range(16, 128), fits(limit));
    EXPECT_EQ(b.result(), limit);
    EXPECT_LE(b.probes().size(), 8u) << "limit " << limit;
  }
}

TEST(Bisection, ProbesOnlyMultiplesOfTheStep) {
  const Bisection b = search(range(16, 128, 4), fits(78));
  EXPECT_EQ(b.result(), 76);
  for (long long v : probed(b)) EXPECT_EQ((v - 16) % 4, 0) << v;
  EXPECT_LE(b.probes().size(), static_cast<size_t>(Bisection::max_probes(29)));
}

TEST(Bisection, AFailingMinEndsTheSearchWithoutAResultAndTriesNothingLarger) {
  const Bisection b = search(range(16, 128), fits(8));
  EXPECT_THAT(probed(b), ElementsAre(16));
  EXPECT_EQ(b.result(), std::nullopt);
  EXPECT_TRUE(b.done());
}

TEST(Bisection, APassingMaxIsTheResultAtTheEndOfTheRange) {
  const Bisection b = search(range(16, 128), fits(1000));
  EXPECT_EQ(b.result(), 128);
  EXPECT_TRUE(b.at_end());
  EXPECT_EQ(b.probes().back().value, 128);
  EXPECT_LE(b.probes().size(), 8u);
}

TEST(Bisection, ASingleCandidateIsProbedOnce) {
  EXPECT_EQ(search({32}, fits(40)).result(), 32);
  EXPECT_EQ(search({32}, fits(10)).result(), std::nullopt);
}

TEST(Bisection, DescendingCandidatesFindTheSmallestOkValue) {
  // goal: smallest_ok, e.g. the fewest GPUs that fit: ok from 24 up.
  std::vector<long long> down = range(1, 64);
  std::reverse(down.begin(), down.end());
  const Bisection b = search(down, [](long long gpus) { return gpus >= 24; });
  EXPECT_EQ(b.probes().front().value, 64);
  EXPECT_EQ(b.result(), 24);
}

TEST(Bisection, OutcomesAlreadyKnownSpareProbesAndResumeWhereTheSearchStopped) {
  // The first three probes of a search were stored before it was interrupted.
  Bisection b(range(16, 128));
  b.record({16, true, "ok"});
  b.record({72, true, "ok"});
  b.record({100, false, "oom"});
  EXPECT_EQ(b.next(), 86);  // where the uninterrupted search would go next
  while (const auto v = b.next()) b.record({*v, *v <= 78, *v <= 78 ? "ok" : "oom"});
  EXPECT_EQ(b.result(), 78);
  EXPECT_THAT(b.probes(), SizeIs(8));
}

TEST(Bisection, AKnownPassBeyondMinSkipsProbingMin) {
  Bisection b(range(16, 128));
  b.record({64, true, "ok"});
  EXPECT_EQ(b.next(), 96);
}

TEST(Bisection, APassAfterAFailureIsANonMonotonicWarningAndTheFirstFailureBounds) {
  Bisection b(range(16, 128));
  b.record({16, true, "ok"});
  b.record({86, false, "oom"});
  b.record({90, true, "ok"});  // e.g. a run from an earlier, wider search
  ASSERT_THAT(b.warnings(), SizeIs(1));
  EXPECT_THAT(b.warnings()[0], HasSubstr("90 ok but 86 oom"));
  while (const auto v = b.next()) b.record({*v, *v <= 78, *v <= 78 ? "ok" : "oom"});
  EXPECT_EQ(b.result(), 78);
}

TEST(Bisection, AFailureBeforeAPassIsANonMonotonicWarningToo) {
  Bisection b(range(16, 128));
  b.record({72, true, "ok"});
  b.record({40, false, "failed"});
  ASSERT_THAT(b.warnings(), SizeIs(1));
  EXPECT_THAT(b.warnings()[0], HasSubstr("72 ok but 40 failed"));
  EXPECT_EQ(b.next(), 16);  // the boundary is now below 40: min has to be tried
}

TEST(Bisection, RejectsValuesThatAreNoCandidatesAndKeepsTheFirstOutcome) {
  Bisection b(range(16, 128, 4));
  EXPECT_THROW(b.record({17, true, "ok"}), std::invalid_argument);
  b.record({16, true, "ok"});
  b.record({16, false, "oom"});
  EXPECT_THAT(b.probes(), SizeIs(1));
  EXPECT_TRUE(b.known(16));
  EXPECT_FALSE(b.known(20));
  EXPECT_THROW(Bisection({}), std::invalid_argument);
}

}  // namespace
}  // namespace aerun
