// `search:` in a case file: the searched parameter becomes a parameter of the sweep whose values
// are the candidates; mistakes are InputErrors at their place.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"
#include "parse_error.hpp"

namespace aerun {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kHead =
    "case: fig6a\ncommand: ./run.sh -m {method} -l {layers}\nparams:\n  method: [a, b]\n";

std::string error_of(const std::string& yaml) {
  return testing::parse_error(yaml, "bad.yaml");
}

std::vector<std::string> values_of(const ParamSpec& p) {
  std::vector<std::string> out;
  for (const auto& v : p.values) out.push_back(v.text());
  return out;
}

TEST(SearchSection, TheSearchedParameterIsASweptParameterOfEveryCandidate) {
  const CaseSpec c =
      parse_case(kHead + "search: {param: layers, min: 16, max: 30, step: 4}\n", "s.yaml", "/tmp");
  ASSERT_TRUE(c.search);
  EXPECT_EQ(c.search->param, "layers");
  EXPECT_EQ(c.search->min, 16);
  EXPECT_EQ(c.search->max, 30);
  EXPECT_EQ(c.search->step, 4);
  EXPECT_EQ(c.search->goal, "largest_ok");
  ASSERT_EQ(c.params.size(), 2u);
  EXPECT_EQ(c.params[1].name, "layers");
  EXPECT_TRUE(c.params[1].is_list);
  EXPECT_THAT(values_of(c.params[1]), ElementsAre("16", "20", "24", "28"));
}

TEST(SearchSection, TheSearchMayComeBeforeParamsAndTablesMayUseIt) {
  const CaseSpec c = parse_case(
      "case: x\nsearch: {param: layers, min: 1, max: 3, goal: smallest_ok}\n"
      "command: echo {layers}\nderive:\n  twice: layers * 2\n"
      "tables:\n  t:\n    columns: [{metric: layers, agg: largest_ok}]\n",
      "s.yaml", "/tmp");
  EXPECT_EQ(c.search->goal, "smallest_ok");
  EXPECT_THAT(values_of(c.params[0]), ElementsAre("1", "2", "3"));
}

TEST(SearchSection, MistakesNameTheirKey) {
  EXPECT_THAT(error_of(kHead + "search: {param: layers, max: 8}\n"),
              HasSubstr("search: missing required key 'min'"));
  EXPECT_THAT(error_of(kHead + "search: {param: method, min: 1, max: 8}\n"),
              AllOf(StartsWith("bad.yaml:5:"), HasSubstr("search.param"),
                    HasSubstr("cannot also be set in params")));
  EXPECT_THAT(error_of(kHead + "search: {param: layers, min: 9, max: 8}\n"),
              AllOf(HasSubstr("search.max"), HasSubstr("below min")));
  EXPECT_THAT(error_of(kHead + "search: {param: layers, min: 1, max: 8, step: 0}\n"),
              HasSubstr("search.step: must be at least 1"));
  EXPECT_THAT(error_of(kHead + "search: {param: layers, min: 1, max: 8, goal: largest}\n"),
              HasSubstr("did you mean 'largest_ok'?"));
  EXPECT_THAT(error_of(kHead + "search: {param: layers, min: 1, max: 8, stpe: 2}\n"),
              HasSubstr("did you mean 'step'?"));
  EXPECT_THAT(error_of(kHead + "search: {param: layers, min: 0, max: 1000000}\n"),
              HasSubstr("use a larger step"));
  EXPECT_THAT(
      error_of(kHead + "include:\n  - {layers: 8}\n" + "search: {param: layers, min: 1, max: 8}\n"),
      HasSubstr("cannot be set by an include"));
}

}  // namespace
}  // namespace aerun
