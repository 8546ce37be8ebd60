// `--only` selections filter a sweep's values before its points are made.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>

#include "aerun/sweep/sweep.hpp"
#include "aerun/util/error.hpp"
#include "sweep_test_support.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using namespace aerun::testing;

// A filter keeping, for each name it lists, only the value texts given.
Sweep::ValueFilter only(std::map<std::string, std::set<std::string>> wanted) {
  return [wanted](const std::string& name, const Value& v) {
    const auto it = wanted.find(name);
    return it == wanted.end() || it->second.count(v.text()) > 0;
  };
}

std::vector<std::string> visited(const Sweep& sweep, const Sweep::ValueFilter& filter) {
  std::vector<std::string> out;
  sweep.for_each(
      [&](const ParamList& p) {
        std::string s;
        for (const auto& [n, v] : p) s += (s.empty() ? "" : " ") + n + "=" + v.text();
        out.push_back(s);
        return true;
      },
      filter);
  return out;
}

// The points a filter keeps, in sweep order, from the whole sweep filtered afterwards.
std::vector<std::string> filtered_afterwards(const Sweep& sweep, const Sweep::ValueFilter& filter) {
  std::vector<std::string> out;
  sweep.for_each([&](const ParamList& p) {
    std::string s;
    bool keep = true;
    for (const auto& [n, v] : p) {
      s += (s.empty() ? "" : " ") + n + "=" + v.text();
      keep = keep && filter(n, v);
    }
    if (keep) out.push_back(s);
    return true;
  });
  return out;
}

TEST(SweepFilter, OnlyTheWantedPointsAreMadeInSweepOrder) {
  const Sweep sweep(
      make_case({list("a", {"1", "2", "3"}), list("b", {"x", "y"}), list("c", {"7", "8", "9"})}));
  EXPECT_THAT(visited(sweep, only({{"a", {"3", "1"}}, {"c", {"8"}}})),
              ElementsAre("a=1 b=x c=8", "a=1 b=y c=8", "a=3 b=x c=8", "a=3 b=y c=8"));
}

TEST(SweepFilter, AFewPointsOfAHugeSweepCostAFew) {
  std::vector<std::string> values;
  for (int i = 0; i < 100; ++i) values.push_back(std::to_string(i));
  // 100^4 = 10^8 points; the selection names one value of each list.
  const Sweep sweep(
      make_case({list("a", values), list("b", values), list("c", values), list("d", values)}));
  long long calls = 0;
  sweep.for_each(
      [&](const ParamList&) {
        ++calls;
        return true;
      },
      only({{"a", {"5"}}, {"b", {"7"}}, {"c", {"1", "2"}}, {"d", {"99"}}}));
  EXPECT_EQ(calls, 2);  // the points visited, not 10^8 tested one by one
}

TEST(SweepFilter, AFilteredOutFixedValueOrZipMemberRemovesItsPoints) {
  auto spec = make_case({fixed("hidden", "2048"), list("mbs", {"1", "2"})});
  spec.zips.push_back({{list("tp", {"1", "2", "4"}), list("pp", {"8", "4", "2"})}, at(4)});
  const Sweep sweep(spec);
  EXPECT_TRUE(visited(sweep, only({{"hidden", {"4096"}}})).empty());
  EXPECT_THAT(visited(sweep, only({{"pp", {"4"}}, {"mbs", {"2"}}})),
              ElementsAre("hidden=2048 mbs=2 tp=2 pp=4"));
}

// Includes, duplicates across grids, excludes and derived values: the same points as filtering
// the whole sweep afterwards, for every selection of one or two values per parameter.
TEST(SweepFilter, GivesWhatFilteringTheWholeSweepGivesWithIncludesExcludesAndDerive) {
  auto spec = make_case({list("m", {"a", "b", "a"}), list("l", {"1", "2", "3"})});
  spec.includes.push_back({{list("m", {"c", "a"}), fixed("l", "2")}, at(8)});
  spec.includes.push_back({{fixed("m", "b"), list("l", {"3", "4"})}, at(9)});
  spec.excludes.push_back({{fixed("l", "3")}, "", at(10)});
  spec.excludes.push_back({{}, "l == 4 && m == \"b\"", at(11)});
  spec.derive.push_back({"twice", "l * 2", at(12)});
  std::unique_ptr<Sweep> made;
  try {
    made = std::make_unique<Sweep>(spec);
  } catch (const InputError& e) {
    FAIL() << e.what();
  }
  const Sweep& sweep = *made;
  const std::vector<std::string> ms = {"a", "b", "c", "z"}, ls = {"1", "2", "3", "4"};
  for (const auto& m1 : ms)
    for (const auto& m2 : ms)
      for (const auto& l1 : ls) {
        const auto f = only({{"m", {m1, m2}}, {"l", {l1}}});
        EXPECT_EQ(visited(sweep, f), filtered_afterwards(sweep, f)) << m1 << m2 << l1;
      }
  EXPECT_EQ(visited(sweep, only({})), filtered_afterwards(sweep, only({})));
}

}  // namespace
}  // namespace aerun
