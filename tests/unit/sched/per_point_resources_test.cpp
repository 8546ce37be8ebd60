// Per-point resources: `{param}` placeholders in `resources:` values are resolved for each sweep
// point (params, zip, derive), checked as a literal value is (file:line, key and the point named),
// and runs with different resolved resources go into different job arrays, in sweep order.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"
#include "aerun/run/run_plan.hpp"
#include "aerun/sched/batch_runner.hpp"
#include "sched/job_script.hpp"

using namespace aerun;
using ::testing::HasSubstr;

namespace {

CaseSpec case_text(const std::string& body) {
  return parse_case("case: c\ncommand: echo {x}\n" + body, "c.yaml", "/tmp");
}

std::vector<PlannedRun> plan(const CaseSpec& spec) {
  std::vector<PlannedRun> runs;
  plan_runs(spec, nullptr, [&](const PlannedRun& r) {
    runs.push_back(r);
    return true;
  });
  return runs;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(PerPointResources, PlaceholderValuesAreKeptForLaterAndLiteralOnesReadAtLoad) {
  const CaseSpec c = case_text(
      "resources:\n  nodes: '{n}'\n  walltime: '{m}m'\n  constraint: v100-32g\n"
      "params:\n  n: [1, 2]\n  m: 10\n  x: a\n");
  ASSERT_EQ(c.resources.per_point.size(), 2u);
  EXPECT_EQ(c.resources.per_point[0].name, "nodes");
  EXPECT_EQ(c.resources.per_point[0].text, "{n}");
  EXPECT_EQ(c.resources.per_point[0].loc.line, 4);  // line 1 case, 2 command, 3 resources
  EXPECT_FALSE(c.resources.nodes.has_value());
  EXPECT_EQ(c.resources.constraint, "v100-32g");
  EXPECT_TRUE(c.resources.sizes_launch());
}

TEST(PerPointResources, EachPointGetsItsOwnValuesFromParamsZipAndDerive) {
  const CaseSpec c = case_text(
      "resources:\n  nodes: '{nodes}'\n  walltime: '{minutes}m'\n  constraint: '{mem}'\n"
      "  gpus_per_node: 4\n"
      "zip:\n  - nodes: [4, 16]\n    mem: [v100-16g, v100-32g]\nparams:\n  x: a\n"
      "derive:\n  minutes: nodes * 5\n");
  const auto runs = plan(c);
  ASSERT_EQ(runs.size(), 2u);
  const ResourcesSpec& a = resources_of(c, runs[0]);
  const ResourcesSpec& b = resources_of(c, runs[1]);
  EXPECT_EQ(a.nodes, 4);
  EXPECT_EQ(a.walltime_s, 20 * 60);  // derive: 4 nodes * 5 = 20 minutes
  EXPECT_EQ(a.constraint, "v100-16g");
  EXPECT_EQ(a.gpus_per_node, 4);  // the literal value is every point's
  EXPECT_EQ(b.nodes, 16);
  EXPECT_EQ(b.walltime_s, 80 * 60);  // 16 * 5 = 80 minutes
  EXPECT_EQ(b.constraint, "v100-32g");
  EXPECT_NE(resources_signature(a), resources_signature(b));
}

TEST(PerPointResources, ABadResolvedValueNamesFileLineKeyAndThePoint) {
  const CaseSpec zero = case_text("resources:\n  nodes: '{n}'\nparams:\n  n: [2, 0]\n  x: a\n");
  const std::string e = error_of([&] { plan(zero); });
  EXPECT_THAT(e, HasSubstr("c.yaml:4:"));
  EXPECT_THAT(e, HasSubstr("resources.nodes"));
  EXPECT_THAT(e, HasSubstr("between 1 and"));
  EXPECT_THAT(e, HasSubstr("n=0, x=a"));

  const CaseSpec half = case_text("resources:\n  nodes: '{n}'\nparams:\n  n: [1.5]\n  x: a\n");
  EXPECT_THAT(error_of([&] { plan(half); }), HasSubstr("'1.5' is not a whole number"));

  // A value that would break the directive line is refused like a literal one.
  const CaseSpec space =
      case_text("resources:\n  constraint: '{c}'\nparams:\n  c: ['a b']\n  x: a\n");
  EXPECT_THAT(error_of([&] { plan(space); }), HasSubstr("resources.constraint: 'a b' holds ' '"));

  const CaseSpec short_time =
      case_text("resources:\n  walltime: '{t}s'\nparams:\n  t: [30]\n  x: a\n");
  EXPECT_THAT(error_of([&] { plan(short_time); }), HasSubstr("at least 1m"));
}

TEST(PerPointResources, APlaceholderNamingNoParameterIsALoadError) {
  const std::string e = error_of(
      [] { case_text("resources:\n  nodes: '{nodez}'\nparams:\n  nodes: [1]\n  x: a\n"); });
  EXPECT_THAT(e, HasSubstr("c.yaml:4:"));
  EXPECT_THAT(e, HasSubstr("resources.nodes: placeholder '{nodez}' names no parameter"));
  EXPECT_THAT(e, HasSubstr("nodes"));
}

TEST(PerPointResources, RunsAreGroupedIntoOneArrayPerResourceSetInSweepOrder) {
  // Points in sweep order: n=2 x=a, n=2 x=b, n=1 x=a, n=1 x=b, n=4 x=a (the last x only for 4
  // through the zip) -> arrays for n=2 (2 runs), n=1 (2 runs), then a single job for n=4.
  const CaseSpec c = case_text(
      "resources:\n  nodes: '{n}'\nzip:\n  - n: [2, 2, 1, 1, 4]\n    x: [a, b, a, b, a]\n");
  const auto runs = plan(c);
  std::vector<const PlannedRun*> todo;
  for (const auto& r : runs) todo.push_back(&r);
  std::ostringstream out;
  BatchOptions o;
  o.logs_dir = "/tmp/aerun-per-point-test";
  BatchRunner b(c, nullptr, Scheduler::Slurm, o, out);
  const auto jobs = b.plan_jobs(todo);
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].runs.size(), 2u);
  EXPECT_EQ(jobs[0].resources.nodes, 2);
  EXPECT_EQ(jobs[1].runs.size(), 2u);
  EXPECT_EQ(jobs[1].resources.nodes, 1);
  EXPECT_EQ(jobs[2].runs.size(), 1u);
  EXPECT_EQ(jobs[2].resources.nodes, 4);
  EXPECT_EQ(jobs[0].runs[1], todo[1]);
  EXPECT_EQ(jobs[1].runs[0], todo[2]);
  EXPECT_NE(jobs[0].name, jobs[1].name);

  // Each job's directives carry its own nodes; an array line only where there are several runs.
  JobScriptRequest req;
  req.scheduler = Scheduler::Slurm;
  req.resources = &jobs[1].resources;
  req.runs.resize(2);
  EXPECT_EQ(scheduler_directives(c, req), "#SBATCH --nodes=1\n#SBATCH --array=0-1\n");
  req.resources = &jobs[2].resources;
  req.runs.resize(1);
  EXPECT_EQ(scheduler_directives(c, req), "#SBATCH --nodes=4\n");
  req.scheduler = Scheduler::Pbs;
  EXPECT_EQ(scheduler_directives(c, req), "#PBS -l select=4\n");
}

TEST(PerPointResources, WithoutPlaceholdersEveryRunSharesTheCasesResourcesInOneArray) {
  const CaseSpec c = case_text("resources:\n  nodes: 2\nparams:\n  x: [a, b, c]\n");
  const auto runs = plan(c);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].resources, nullptr);
  EXPECT_EQ(resources_of(c, runs[0]).nodes, 2);
  std::vector<const PlannedRun*> todo;
  for (const auto& r : runs) todo.push_back(&r);
  std::ostringstream out;
  BatchOptions o;
  o.logs_dir = "/tmp/aerun-per-point-test";
  const auto jobs = BatchRunner(c, nullptr, Scheduler::Slurm, o, out).plan_jobs(todo);
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].runs.size(), 3u);
}
