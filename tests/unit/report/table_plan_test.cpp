// A table against what its case plans now: rows with no stored run read "missing", and a cell
// built from fewer runs than planned says so (n=2/3) in every output format.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/report/table.hpp"
#include "table_fixture.hpp"

using namespace aerun;
using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// The demo case plans hidden=64 and hidden=128, three repeats each.
std::vector<PlannedRuns> demo_plan() {
  PlannedRuns p;
  p.case_name = "demo";
  p.points = {params({{"hidden", "64"}}), params({{"hidden", "128"}})};
  p.repeat = 3;
  return {p};
}

// hidden=64: two repeats ok and one failed; hidden=128: nothing stored.
std::vector<RunRecord> two_of_three() {
  return {make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 12.0}}, 0),
          make_run(params({{"hidden", "64"}}), "failed", {}, 1),
          make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 14.0}}, 2)};
}

Table planned_table() {
  return build_table(make_case(), make_table({"hidden"}, {column("iter_ms")}), two_of_three(),
                     demo_plan());
}

}  // namespace

TEST(TablePlan, APlannedRowWithNoStoredRunReadsMissing) {
  const Table t = planned_table();
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[1].key, std::vector<std::string>{"128"});
  EXPECT_EQ(t.rows[1].cells[0].text, "missing");
  EXPECT_TRUE(t.rows[1].cells[0].status);
  EXPECT_EQ(t.rows[1].cells[0].planned, 3);
}

TEST(TablePlan, ACellKnowsHowManyRunsWerePlannedForIt) {
  const Table t = planned_table();  // the cell lives as long as its table
  const TableCell& c = t.rows[0].cells[0];
  EXPECT_EQ(c.n, 2);
  EXPECT_EQ(c.planned, 3);
  EXPECT_TRUE(short_of_plan(c));
  EXPECT_EQ(runs_count_text(c), "n=2/3");
}

TEST(TablePlan, WithoutAPlanNoRowIsAddedAndNothingIsMarked) {
  const Table t =
      build_table(make_case(), make_table({"hidden"}, {column("iter_ms")}), two_of_three());
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].cells[0].planned, 0);
  EXPECT_FALSE(short_of_plan(t.rows[0].cells[0]));
  EXPECT_EQ(runs_count_text(t.rows[0].cells[0]), "n=2");
}

TEST(TablePlan, AFullCellIsNotMarked) {
  auto runs = two_of_three();
  runs[1] = make_run(params({{"hidden", "64"}}), "ok", {{"iter_ms", 13.0}}, 1);
  const Table t =
      build_table(make_case(), make_table({"hidden"}, {column("iter_ms")}), runs, demo_plan());
  EXPECT_EQ(t.rows[0].cells[0].n, 3);
  EXPECT_FALSE(short_of_plan(t.rows[0].cells[0]));
  EXPECT_THAT(render_markdown(t), HasSubstr("| 13 (12–14, n=3) |"));
}

TEST(TablePlan, PlannedPointsOutsideTheTablesWhereAreNotRows) {
  TableSpec spec = make_table({"hidden"}, {column("iter_ms")});
  spec.where = {params({{"hidden", "64"}})};
  const Table t = build_table(make_case(), spec, two_of_three(), demo_plan());
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].cells[0].planned, 3);
}

TEST(TablePlan, ARowKeyedOnFewerParametersCountsEveryPlannedRunOfIt) {
  // Rows by nothing but a fixed column: all six planned runs fall in one row.
  CaseSpec c = make_case();
  ParamSpec model;
  model.name = "model";
  model.values = {Value::parse("mlp")};
  c.params.push_back(model);
  auto plan = demo_plan();
  for (auto& p : plan[0].points) p.emplace_back("model", Value::parse("mlp"));
  auto runs = two_of_three();
  for (auto& r : runs) r.params.emplace_back("model", Value::parse("mlp"));
  const Table t = build_table(c, make_table({"model"}, {column("iter_ms")}), runs, plan);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(runs_count_text(t.rows[0].cells[0]), "n=2/6");
}

TEST(TablePlan, MarkdownShowsTheShortfallEvenForASingleValue) {
  auto runs = two_of_three();
  runs.pop_back();  // one ok value of three planned
  const Table t =
      build_table(make_case(), make_table({"hidden"}, {column("iter_ms")}), runs, demo_plan());
  const std::string md = render_markdown(t);
  EXPECT_THAT(md, HasSubstr("| 64 | 12 (n=1/3) |"));
  EXPECT_THAT(md, HasSubstr("| 128 | missing |"));
}

TEST(TablePlan, MarkdownGivesTheSpreadAndTheShortfall) {
  EXPECT_THAT(render_markdown(planned_table()), HasSubstr("| 64 | 13 (12–14, n=2/3) |"));
}

TEST(TablePlan, CsvCarriesTheCountAndThePlannedCountAsNumbers) {
  const std::string csv = render_csv(planned_table());
  EXPECT_THAT(csv, HasSubstr("hidden,iter_ms,iter_ms_min,iter_ms_max,iter_ms_n,iter_ms_planned\n"));
  EXPECT_THAT(csv, HasSubstr("64,13,12,14,2,3\n"));
  EXPECT_THAT(csv, HasSubstr("128,missing,,,,3\n"));
}

TEST(TablePlan, CsvHasNoPlannedColumnWhenEveryCellIsFull) {
  const Table t =
      build_table(make_case(), make_table({"hidden"}, {column("iter_ms")}), two_of_three());
  EXPECT_THAT(render_csv(t), Not(HasSubstr("_planned")));
}

TEST(TablePlan, JsonCarriesNAndPlanned) {
  const std::string json = render_json(planned_table());
  EXPECT_THAT(json, HasSubstr("\"n\": 2, \"planned\": 3"));
  EXPECT_THAT(json, HasSubstr("\"n\": null, \"planned\": 3"));
}

TEST(TablePlan, LatexMarksTheCellAndExplainsTheMarkInTheCaption) {
  const std::string tex = render_latex(planned_table());
  EXPECT_THAT(tex, HasSubstr("13$^{2/3}$"));
  EXPECT_THAT(tex, HasSubstr("$^{n/p}$: from $n$ of the $p$ planned runs."));
}

TEST(TablePlan, HtmlShowsTheShortfallBesideTheNumber) {
  EXPECT_THAT(render_html(planned_table()), HasSubstr("n=2/3"));
}

// The table is the same whatever order its runs stream in: first/last follow the run order
// (repeat, attempt, id), statuses keep their first run's order, and nothing needs the runs kept.
TEST(TableBuilder, RunsGivenInAnyOrderMakeTheSameTable) {
  std::vector<RunRecord> runs;
  for (int i = 0; i < 12; ++i) {
    RunRecord r = make_run(params({{"hidden", i % 2 ? "64" : "128"}}),
                           i % 5 == 4 ? "oom" : (i % 7 == 6 ? "failed" : "ok"),
                           {{"iter_ms", 10.0 + i}}, i / 2);
    r.id = 100 - i;  // ids against the repeat order
    r.attempt = 1 + i % 3;
    runs.push_back(r);
  }
  TableSpec t = make_table({"hidden"}, {column("iter_ms"), column("iter_ms", "first"),
                                        column("iter_ms", "last"), column("iter_ms", "mean")});
  t.columns[1].label = "first";
  t.columns[2].label = "last";
  t.columns[3].label = "mean";
  const std::string whole = render_csv(build_table(make_case(), t, runs, demo_plan()));
  for (bool reversed : {false, true}) {
    const CaseSpec spec = make_case();  // the builder reads the case as long as it lives
    TableBuilder b(spec, t, {"hidden"}, {"iter_ms"});
    if (reversed)
      for (auto it = runs.rbegin(); it != runs.rend(); ++it) b.add(*it);
    else
      for (size_t i = 0; i < runs.size(); i += 2) b.add(runs[i]), b.add(runs[i + 1]);
    EXPECT_EQ(render_csv(b.finish(demo_plan())), whole) << (reversed ? "reversed" : "pairs");
  }
}

// Threads reading a large store in parts each fill a builder of their own, merged in order: the
// table is the one a single builder makes of every run, wherever the runs were cut and in how many
// parts (rows first seen in a later part, statuses, parameter columns, references included).
TEST(TableBuilder, BuildersMergedFromPartsCutAnywhereMakeTheSameTable) {
  std::vector<RunRecord> runs;
  for (int i = 0; i < 14; ++i) {
    RunRecord r = make_run(params({{"hidden", i % 5 == 4 ? "512"
                                              : i < 4    ? "64"
                                                         : (i % 3 ? "128" : "256")},
                                   {"layers", std::to_string(12 + 12 * (i % 3))}}),
                           i % 5 == 4 ? "oom" : (i % 7 == 6 ? "failed" : "ok"),
                           {{"iter_ms", 10.0 + i * 1.25}}, i / 3);
    r.attempt = 1 + i % 2;
    runs.push_back(r);
  }
  TableSpec t = make_table(
      {"hidden"}, {column("iter_ms"), column("iter_ms", "first"), column("iter_ms", "last"),
                   column("iter_ms", "mean"), column("layers"), column("layers", "largest_ok")});
  t.columns[1].label = "first";
  t.columns[2].label = "last";
  t.columns[3].label = "mean";
  t.columns[5].label = "most_layers";
  Reference ref;
  ref.match = params({{"hidden", "256"}, {"layers", "36"}});
  ref.column = "iter_ms";
  ref.value = 20;
  t.references.push_back(ref);
  const CaseSpec spec = make_case();
  const std::string whole = render_csv(build_table(spec, t, runs, demo_plan()));
  EXPECT_THAT(whole, HasSubstr("OOM"));
  for (size_t cut = 0; cut <= runs.size(); ++cut)
    for (size_t second_cut = cut; second_cut <= runs.size(); second_cut += 5) {
      TableBuilder first(spec, t, {"hidden", "layers"}, {"iter_ms"});
      TableBuilder second(spec, t, {"hidden", "layers"}, {"iter_ms"});
      TableBuilder third(spec, t, {"hidden", "layers"}, {"iter_ms"});
      for (size_t i = 0; i < runs.size(); ++i)
        (i < cut ? first : i < second_cut ? second : third).add(runs[i]);
      first.merge(std::move(second));
      first.merge(std::move(third));
      EXPECT_EQ(render_csv(first.finish(demo_plan())), whole)
          << "cut at " << cut << " and " << second_cut;
    }
}
