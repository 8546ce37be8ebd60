// The STRONGHOLD cases' tables regenerated from fixture logs in the notebook's formats (see
// tests/fixtures/stronghold/README.md): each case's sweep points are matched to fixture logs by the
// artifact's log naming, read with the case's own metrics and status patterns, and the tables
// rendered to Markdown are compared with golden files.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "aerun/case/case_loader.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/report/plot.hpp"
#include "aerun/report/table.hpp"
#include "aerun/sweep/sweep.hpp"
#include "fixture_runs.hpp"
#include "harness.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;
using testing::run_from_log;

const std::string kFixtures = std::string(AERUN_FIXTURES) + "/stronghold";
const std::string kCases = std::string(AERUN_CASES_DIR) + "/stronghold";

std::string param(const ParamList& p, const std::string& name) {
  const Value* v = find_param(p, name);
  return v ? v->text() : "";
}

// Every point of the case that has a fixture log, named like run.sh names its logs.
std::vector<RunRecord> runs_of(const CaseSpec& c) {
  std::vector<RunRecord> runs;
  Sweep(c).for_each([&](const ParamList& p) {
    const std::string log =
        fmt::format("{}/fixture_log_{}_l-{}_hs-{}_bs-{}_ws-{}.txt", kFixtures, param(p, "method"),
                    param(p, "layers"), param(p, "hidden"), param(p, "batch"), param(p, "window"));
    EXPECT_TRUE(fs::exists(log)) << log;
    if (fs::exists(log)) runs.push_back(run_from_log(c, p, log));
    return true;
  });
  return runs;
}

// The five cases and their fixture runs, as one store would hold them.
struct Stronghold {
  std::map<std::string, CaseSpec> cases;
  std::vector<RunRecord> runs;
  Stronghold() {
    for (int i = 1; i <= 5; ++i) {
      CaseSpec c = load_case(fmt::format("{}/case{}.yaml", kCases, i));
      auto more = runs_of(c);
      runs.insert(runs.end(), more.begin(), more.end());
      cases.emplace(c.name, std::move(c));
    }
  }
  const TableSpec& table(const std::string& case_name, const std::string& name) const {
    for (const auto& t : cases.at(case_name).tables)
      if (t.name == name) return t;
    throw std::runtime_error("no table " + name);
  }
  Table build(const std::string& case_name, const std::string& name) const {
    return build_table(cases.at(case_name), table(case_name, name), runs);
  }
};

void expect_golden(const std::string& text, const std::string& name) {
  testing::expect_golden(text, kFixtures + "/golden/" + name);
}

TEST(StrongholdGolden, Fig6aShowsTheLargestSizeThatTrainedPerMethodBesideTheNotebooksTable) {
  Stronghold s;
  expect_golden(render_markdown(s.build("stronghold-fig6a", "fig6a")), "fig6a.md");
}

TEST(StrongholdGolden, Fig6aKeepsTheLargestSizeThatPassedWhenALargerOneRanOutOfMemory) {
  Stronghold s;
  CaseSpec c = s.cases.at("stronghold-fig6a");
  ParamList p = s.runs.front().params;  // megatron-lm at 32 layers, then 40 layers: OOM
  for (auto& [n, v] : p)
    if (n == "layers") v = Value::parse("40");
  auto runs = s.runs;
  runs.push_back(run_from_log(
      c, p, kFixtures + "/fixture_log_megatron-lm_l-40_hs-2048_bs-4_ws-4_SYNTHETIC_OOM.txt"));
  EXPECT_EQ(runs.back().status, "oom");
  const Table t = build_table(c, s.table("stronghold-fig6a", "fig6a"), runs);
  const auto row = std::find_if(t.rows.begin(), t.rows.end(),
                                [](const Table::Row& r) { return r.key[0] == "megatron-lm"; });
  ASSERT_NE(row, t.rows.end());
  EXPECT_EQ(row->cells[0].text, "32");
  EXPECT_EQ(row->cells[1].text, "1.717");
}

TEST(StrongholdGolden, Fig7aComparesEachBaselineAtItsLargestSizeWithStronghold) {
  Stronghold s;
  expect_golden(render_markdown(s.build("stronghold-fig7a", "fig7a")), "fig7a.md");
  expect_golden(render_latex(s.build("stronghold-fig7a", "fig7a")), "fig7a.tex");
}

TEST(StrongholdGolden, Fig8aShowsEveryMethodAt32LayersAndAMissingThroughputAsMissing) {
  Stronghold s;
  expect_golden(render_markdown(s.build("stronghold-fig8a", "fig8a")), "fig8a.md");
  expect_golden(render_markdown(s.build("stronghold-fig8a", "fig8a_wide")), "fig8a_wide.md");
}

TEST(StrongholdGolden, Fig8bAndFig9ShowIterationTimesBesideTheNotebooksLogValues) {
  Stronghold s;
  expect_golden(render_markdown(s.build("stronghold-fig8b", "fig8b")), "fig8b.md");
  expect_golden(render_markdown(s.build("stronghold-fig9", "fig9")), "fig9.md");
}

TEST(StrongholdGolden, Fig8bIterationTimeGrowsNearlyLinearlyWithLayers) {
  Stronghold s;
  const CaseSpec& c = s.cases.at("stronghold-fig8b");
  const PlotData d = plot_data(c, c.plots.at(0), s.runs);
  ASSERT_EQ(d.series.size(), 1u);
  ASSERT_TRUE(d.series[0].fit);
  EXPECT_EQ(d.series[0].x.size(), 9u);  // 6 runs of its own, 3 from Fig. 7a
  EXPECT_GT(d.series[0].fit->r2, 0.99);
  EXPECT_NEAR(d.series[0].fit->slope, 245, 15);  // ms per layer
}

}  // namespace
}  // namespace aerun
