// Presets: the registry, versions, and how a case's `presets:` resolves into its metrics.
#include "aerun/logread/presets.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/error.hpp"

using aerun::CaseSpec;
using aerun::InputError;
using aerun::parse_case;
using testing::HasSubstr;

namespace {

CaseSpec load(const std::string& yaml) {
  return parse_case(yaml, "cases/fig.yaml", "/tmp");
}

const aerun::MetricSpec* metric(const CaseSpec& s, const std::string& name) {
  for (const auto& m : s.metrics)
    if (m.name == name) return &m;
  return nullptr;
}

std::string error_of(const std::string& yaml) {
  try {
    load(yaml);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Presets, EveryDocumentedPresetExistsAtVersion1) {
  for (const char* name :
       {"deepspeed", "stronghold", "ezpz", "startup", "torchtitan", "nanotron", "nanogpt",
        "lightning", "nemo", "maxtext", "composer", "torchtune", "mlperf"}) {
    const auto* p = aerun::find_preset(name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_EQ(p->version, 1);
    EXPECT_EQ(aerun::find_preset(std::string(name) + "@1"), p);
  }
  // Transformers 5's quoted values made a version 2; version 1 stays as it was.
  const auto* hf = aerun::find_preset("hf-trainer");
  ASSERT_NE(hf, nullptr);
  EXPECT_EQ(hf->version, 2);
  ASSERT_NE(aerun::find_preset("hf-trainer@1"), nullptr);
  EXPECT_EQ(aerun::find_preset("hf-trainer@1")->version, 1);
  // megatron@2 reads only Megatron's padded iteration counter (not NeMo 2's).
  ASSERT_NE(aerun::find_preset("megatron"), nullptr);
  EXPECT_EQ(aerun::find_preset("megatron")->version, 2);
  EXPECT_EQ(aerun::find_preset("megatron@1")->version, 1);
  EXPECT_EQ(aerun::find_preset("megatron@3"), nullptr);
  EXPECT_EQ(aerun::find_preset("megatron@"), nullptr);
  EXPECT_EQ(aerun::find_preset("nope"), nullptr);
}

TEST(Presets, MetricNamesAreUniqueWithinAPresetAndUnitsAreNormalised) {
  for (const auto& p : aerun::builtin_presets()) {
    std::set<std::string> names;
    for (const auto& m : p.metrics) EXPECT_TRUE(names.insert(m.name).second) << m.name;
  }
  const auto* mega = aerun::find_preset("megatron");
  const auto it = std::find_if(mega->metrics.begin(), mega->metrics.end(),
                               [](const auto& m) { return m.name == "iter_ms"; });
  ASSERT_NE(it, mega->metrics.end());
  EXPECT_EQ(it->unit, "ms");
  ASSERT_EQ(it->alternatives.size(), 2u);
  EXPECT_EQ(it->alternatives[0].scale, 1000);  // "(s):" lines are seconds: x1000 -> ms
  EXPECT_TRUE(it->progress);
}

TEST(Presets, ACaseWithAPresetGetsItsMetricsStatusAndStartup) {
  const CaseSpec s = load("case: c\ncommand: run\npresets: [megatron]\n");
  EXPECT_NE(metric(s, "iter_ms"), nullptr);
  EXPECT_NE(metric(s, "lm_loss"), nullptr);
  EXPECT_EQ(s.startup.first_step, R"(iteration\s+1/)");
  bool has_oom = false, has_timeout = false;
  for (const auto& st : s.status) {
    has_oom = has_oom || st.status == "oom";
    has_timeout = has_timeout || st.status == "timeout";
  }
  EXPECT_TRUE(has_oom);
  EXPECT_TRUE(has_timeout);
}

TEST(Presets, ACaseMetricWithAPresetNameReplacesItInPlace) {
  const CaseSpec s = load(
      "case: c\ncommand: run\npresets: megatron\n"
      "metrics:\n  iter_ms: {regex: 'took ([0-9.]+) ms', reduce: median}\n  extra: 'x=(\\d+)'\n");
  const auto* m = metric(s, "iter_ms");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->pattern, "took ([0-9.]+) ms");
  EXPECT_EQ(m->reduce, aerun::Reduction::Median);
  EXPECT_TRUE(m->alternatives.empty());
  EXPECT_EQ(s.metrics[0].name, "iteration");  // preset order kept
  EXPECT_EQ(s.metrics.back().name, "extra");  // other case metrics follow
}

TEST(Presets, CaseStatusPatternsComeBeforePresetOnesAndSharedOnesAppearOnce) {
  const CaseSpec s = load(
      "case: c\ncommand: run\npresets: [megatron, deepspeed]\n"
      "status: {mine: 'MY ERROR'}\n");
  ASSERT_FALSE(s.status.empty());
  EXPECT_EQ(s.status[0].status, "mine");
  EXPECT_EQ(s.status.size(), 1 + aerun::shared_status_patterns().size());
}

TEST(Presets, AnUnknownPresetIsAnInputErrorWithASuggestion) {
  const std::string e = error_of("case: c\ncommand: run\npresets: [megatorn]\n");
  EXPECT_THAT(e, HasSubstr("cases/fig.yaml:3"));
  EXPECT_THAT(e, HasSubstr("unknown preset 'megatorn'"));
  EXPECT_THAT(e, HasSubstr("did you mean 'megatron'?"));
  EXPECT_THAT(e, HasSubstr("stronghold@1"));
  EXPECT_THAT(error_of("case: c\ncommand: run\npresets: [megatron@7]\n"),
              HasSubstr("unknown preset 'megatron@7'"));
}

TEST(Presets, TableColumnsAreCheckedAgainstTheResolvedMetrics) {
  const std::string ok =
      "case: c\nparams: {m: [a]}\ncommand: run {m}\npresets: [megatron, startup]\n"
      "tables:\n  t:\n    rows: [m]\n    columns: [iter_ms, tflops_per_gpu, log_startup_s]\n";
  EXPECT_NO_THROW(load(ok));
  const std::string e = error_of(
      "case: c\nparams: {m: [a]}\ncommand: run {m}\npresets: [megatron]\n"
      "tables:\n  t:\n    rows: [m]\n    columns: [iter_mss]\n");
  EXPECT_THAT(e, HasSubstr("unknown column source 'iter_mss'"));
  EXPECT_THAT(e, HasSubstr("did you mean 'iter_ms'?"));
}

TEST(Presets, APresetMetricNamedLikeAParameterIsRejected) {
  EXPECT_THAT(error_of("case: c\nparams: {iteration: [1]}\ncommand: run {iteration}\n"
                       "presets: [megatron]\n"),
              HasSubstr("metric 'iteration' has the name of a parameter"));
}

TEST(Presets, StartupFromLogTimestampsIsReadFromTheCaseFile) {
  const CaseSpec s = load(
      "case: c\ncommand: run\nstartup:\n  job_start: 'Job started at: (\\S+)'\n"
      "  job_start_format: '%Y-%m-%d-%H%M%S'\n  step_time: '^\\[([^]]+)\\] .*step=0,'\n"
      "  step_time_format: '%Y-%m-%d %H:%M:%S%f'\n  tz: '+02:00'\n");
  EXPECT_EQ(s.startup.job_start_format, "%Y-%m-%d-%H%M%S");
  EXPECT_EQ(s.startup.tz, "+02:00");
  EXPECT_THAT(error_of("case: c\ncommand: run\nstartup: {job_start: 'a(b)', job_start_format: "
                       "'%Y', step_time: 'c(d)', step_time_format: '%Y', tz: Europe/Paris}\n"),
              HasSubstr("unknown time zone 'Europe/Paris'"));
  EXPECT_THAT(
      error_of("case: c\ncommand: run\nstartup: {job_start: 'a(b)', job_start_format: '%Y'}\n"),
      HasSubstr("'job_start' and 'step_time' go together"));
}
