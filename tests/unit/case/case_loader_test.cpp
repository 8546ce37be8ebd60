// load_case / parse_case: every key of the case format lands in the CaseSpec.
#include "aerun/case/case_loader.hpp"
#include "aerun/logread/presets.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include <filesystem>

namespace aerun {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kFull = std::string(AERUN_FIXTURES) + "/cases/full.yaml";

std::vector<std::string> texts(const std::vector<Value>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) out.push_back(v.text());
  return out;
}

std::vector<std::string> texts(const ParamList& list) {
  std::vector<std::string> out;
  for (const auto& [n, v] : list) out.push_back(n + "=" + v.text());
  return out;
}

class FullCase : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { spec_ = new CaseSpec(load_case(kFull)); }
  static void TearDownTestSuite() {
    delete spec_;
    spec_ = nullptr;
  }
  const CaseSpec& spec() const { return *spec_; }
  static CaseSpec* spec_;
};
CaseSpec* FullCase::spec_ = nullptr;

TEST_F(FullCase, RecordsTheAbsoluteFileAndDescriptiveStrings) {
  EXPECT_EQ(spec().file, fs::absolute(kFull).lexically_normal().string());
  EXPECT_EQ(spec().name, "demo");
  EXPECT_EQ(spec().title, "Demo");
  EXPECT_EQ(spec().paper, "STRONGHOLD (SC'22)");
  EXPECT_EQ(spec().figure, "Fig. 7a");
}

TEST_F(FullCase, ResolvesARelativeWorkdirAgainstTheCaseFilesFolder) {
  EXPECT_EQ(spec().workdir, (fs::path(AERUN_FIXTURES) / "work").lexically_normal().string());
}

TEST_F(FullCase, KeepsShellAndEnvironmentInFileOrder) {
  EXPECT_EQ(spec().shell, "/bin/sh");
  EXPECT_THAT(texts(spec().env), ElementsAre("OMP_NUM_THREADS=1", "TAG=a b"));
}

TEST_F(FullCase, ReadsParamsInFileOrderWithListsMarkedAsSwept) {
  const auto& p = spec().params;
  ASSERT_EQ(p.size(), 7u);
  EXPECT_EQ(p[0].name, "window");
  EXPECT_FALSE(p[0].is_list);
  EXPECT_EQ(p[1].name, "hidden");
  EXPECT_TRUE(p[1].is_list);
  EXPECT_THAT(texts(p[1].values), ElementsAre("64", "128"));
  EXPECT_EQ(p[1].values[0].kind(), Value::Kind::Int);
  EXPECT_EQ(p[2].name, "iters");
  EXPECT_THAT(texts(p[2].values), ElementsAre("30"));
}

TEST_F(FullCase, KeepsQuotedParameterValuesAsStrings) {
  const ParamSpec& label = spec().params[6];
  EXPECT_EQ(label.name, "label");
  EXPECT_EQ(label.values[0].text(), "007");
  EXPECT_EQ(label.values[0].kind(), Value::Kind::String);
}

TEST_F(FullCase, RecordsOneBasedLocationsOfParameters) {
  EXPECT_EQ(spec().params[0].loc.file, spec().file);
  EXPECT_EQ(spec().params[0].loc.line, 10);
  EXPECT_EQ(spec().params[0].loc.col, 3);
}

TEST_F(FullCase, ReadsZipGroupsAsListsAdvancedTogether) {
  ASSERT_EQ(spec().zips.size(), 1u);
  const auto& m = spec().zips[0].members;
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "method");
  EXPECT_THAT(texts(m[0].values), ElementsAre("megatron-lm", "l2l"));
  EXPECT_EQ(m[1].name, "layers");
  EXPECT_THAT(texts(m[1].values), ElementsAre("32", "78"));
  EXPECT_EQ(spec().zips[0].loc.line, 18);
}

TEST_F(FullCase, ReadsIncludesWithFixedAndSweptValues) {
  ASSERT_EQ(spec().includes.size(), 1u);
  const auto& p = spec().includes[0].params;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].name, "method");
  EXPECT_FALSE(p[0].is_list);
  EXPECT_TRUE(p[1].is_list);
  EXPECT_THAT(texts(p[1].values), ElementsAre("32", "48", "78"));
  EXPECT_EQ(p[2].name, "window");
}

TEST_F(FullCase, ReadsExcludesAsMatchesOrConditions) {
  ASSERT_EQ(spec().excludes.size(), 2u);
  const auto& m = spec().excludes[0].match;
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "method");
  EXPECT_THAT(texts(m[1].values), ElementsAre("16", "32"));
  EXPECT_TRUE(spec().excludes[0].condition.empty());
  EXPECT_TRUE(spec().excludes[1].match.empty());
  EXPECT_EQ(spec().excludes[1].condition, "layers > 64 && method == \"l2l\"");
}

TEST_F(FullCase, ReadsDerivedParametersInOrder) {
  ASSERT_EQ(spec().derive.size(), 2u);
  EXPECT_EQ(spec().derive[0].name, "gbs");
  EXPECT_EQ(spec().derive[0].formula, "mbs * dp * gas");
  EXPECT_EQ(spec().derive[1].name, "tokens");
  EXPECT_EQ(spec().derive[1].formula, "gbs * 1024");
}

TEST_F(FullCase, ReadsABlockScalarCommandVerbatim) {
  EXPECT_THAT(spec().command, HasSubstr("./run.sh -m {method} -l {layers} -h {hidden} \\\n"));
  EXPECT_THAT(spec().command, HasSubstr("# ${HOME} {{literal}}\n"));
  EXPECT_EQ(spec().command_loc.line, 27);
}

TEST_F(FullCase, ReadsRunControls) {
  EXPECT_EQ(spec().repeat, 2);
  EXPECT_DOUBLE_EQ(spec().timeout_s, 5400);
  EXPECT_EQ(spec().retries, 1);
  EXPECT_TRUE(spec().exclusive_gpu);
  EXPECT_THAT(spec().presets, ElementsAre("megatron"));
}

// The case's metrics, after preset megatron is resolved (case metrics replace preset ones).
const MetricSpec& metric_named(const CaseSpec& spec, const std::string& name) {
  for (const auto& m : spec.metrics)
    if (m.name == name) return m;
  throw std::runtime_error("no metric " + name);
}

TEST_F(FullCase, ReadsMetricsWithTheirOptions) {
  const MetricSpec& iter_ms = metric_named(spec(), "iter_ms");
  EXPECT_EQ(iter_ms.pattern, "elapsed time per iteration \\(ms\\): ([0-9.]+)");
  EXPECT_EQ(iter_ms.reduce, Reduction::Median);
  EXPECT_EQ(iter_ms.skip, 1);
  EXPECT_EQ(iter_ms.unit, "ms");
  EXPECT_DOUBLE_EQ(metric_named(spec(), "iter_s").scale, 0.001);
  EXPECT_EQ(metric_named(spec(), "iter_s").reduce, Reduction::Last);
  EXPECT_TRUE(metric_named(spec(), "loss").series);
  EXPECT_FALSE(metric_named(spec(), "iter_s").series);
  EXPECT_EQ(spec().metrics.back().name, "loss");  // case-only metrics follow the preset's
}

TEST_F(FullCase, ReadsAPlainStringMetricAsItsRegex) {
  const MetricSpec& m = metric_named(spec(), "samples_per_s");
  EXPECT_EQ(m.name, "samples_per_s");
  EXPECT_EQ(m.pattern, "SamplesPerSecond: ([0-9.]+)");
  EXPECT_EQ(m.loc.line, 39);
}

TEST_F(FullCase, ReadsStatusPatternsAndStartup) {
  ASSERT_GT(spec().status.size(), 2u);  // then the shared patterns of preset megatron
  EXPECT_EQ(spec().status[0].pattern, "CUDA out of memory");
  EXPECT_EQ(spec().status[0].status, "oom");
  EXPECT_EQ(spec().status[1].status, "killed");
  EXPECT_EQ(spec().startup.first_step, "iteration\\s+1/");
}

TEST_F(FullCase, ReadsTableRowsColumnsAndFilters) {
  ASSERT_EQ(spec().tables.size(), 2u);
  const TableSpec& t = spec().tables[0];
  EXPECT_EQ(t.name, "demo");
  EXPECT_EQ(t.title, "Throughput");
  EXPECT_THAT(t.rows, ElementsAre("method", "layers"));
  ASSERT_EQ(t.columns.size(), 3u);
  EXPECT_EQ(t.columns[0].source, "iter_ms");
  EXPECT_EQ(t.columns[0].label, "iter_ms");
  EXPECT_EQ(t.columns[0].agg, Aggregation::Median);
  EXPECT_EQ(t.columns[1].source, "samples_per_s");
  EXPECT_EQ(t.columns[1].label, "Samples/s");
  EXPECT_EQ(t.columns[1].agg, Aggregation::Mean);
  EXPECT_EQ(t.columns[1].format, ".2f");
  EXPECT_EQ(t.columns[2].source, "tflops_per_gpu");  // a metric of preset megatron
  EXPECT_DOUBLE_EQ(t.tolerance, 0.15);
}

TEST_F(FullCase, ExpandsWhereListsIntoOneMatchPerValue) {
  const TableSpec& t = spec().tables[0];
  ASSERT_EQ(t.where.size(), 2u);
  EXPECT_THAT(texts(t.where[0]), ElementsAre("method=stronghold", "hidden=64"));
  EXPECT_THAT(texts(t.where[1]), ElementsAre("method=l2l", "hidden=64"));
}

TEST_F(FullCase, TurnsEachReferenceColumnIntoOneReference) {
  const auto& refs = spec().tables[0].references;
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0].column, "samples_per_s");
  EXPECT_DOUBLE_EQ(refs[0].value, 0.0529);
  EXPECT_THAT(texts(refs[0].match), ElementsAre("method=l2l", "layers=78"));
  EXPECT_EQ(refs[1].column, "iter_ms");
  EXPECT_DOUBLE_EQ(refs[1].value, 75600);
  EXPECT_THAT(texts(refs[1].match), ElementsAre("method=l2l", "layers=78"));
}

TEST_F(FullCase, AcceptsASingleRowAndBuiltInColumnSources) {
  const TableSpec& t = spec().tables[1];
  EXPECT_THAT(t.rows, ElementsAre("hidden"));
  ASSERT_EQ(t.columns.size(), 3u);
  EXPECT_EQ(t.columns[0].source, "wall_s");
  EXPECT_EQ(t.columns[1].source, "startup_s");
  EXPECT_EQ(t.columns[2].source, "gbs");
  EXPECT_DOUBLE_EQ(t.tolerance, 0.10);
  EXPECT_TRUE(t.where.empty());
}

// `--stall` and `--first-step` as given.
CaseOverrides watchdogs(const std::string& stall, const std::string& first_step) {
  CaseOverrides o;
  o.stall = stall;
  o.first_step = first_step;
  return o;
}

TEST(ParseCase, AppliesDefaultsToAMinimalCase) {
  const CaseSpec s = parse_case("case: m\ncommand: echo hi\n", "m.yaml", "/tmp/base");
  EXPECT_EQ(s.file, "m.yaml");
  EXPECT_EQ(s.workdir, "/tmp/base");
  EXPECT_EQ(s.shell, "/bin/bash");
  EXPECT_EQ(s.repeat, 1);
  EXPECT_EQ(s.retries, 0);
  EXPECT_DOUBLE_EQ(s.timeout_s, 0);
  EXPECT_FALSE(s.exclusive_gpu);
  EXPECT_TRUE(s.params.empty());
  EXPECT_TRUE(s.startup.first_step.empty());
  EXPECT_EQ(s.command, "echo hi");
  EXPECT_EQ(s.command_loc.line, 2);
  EXPECT_EQ(s.command_loc.col, 10);
}

TEST(ParseCase, TypesPlainValuesAndKeepsQuotedOrTaggedStringsAsText) {
  const CaseSpec s = parse_case(
      "case: m\ncommand: ls\nparams:\n  a: [32, 1e-3, true, x, '32', !!str 5]\n", "m.yaml", "/b");
  const auto& v = s.params[0].values;
  ASSERT_EQ(v.size(), 6u);
  EXPECT_EQ(v[0].kind(), Value::Kind::Int);
  EXPECT_EQ(v[1].kind(), Value::Kind::Float);
  EXPECT_EQ(v[1].text(), "1e-3");
  EXPECT_EQ(v[2].kind(), Value::Kind::Bool);
  EXPECT_EQ(v[3].kind(), Value::Kind::String);
  EXPECT_EQ(v[4].kind(), Value::Kind::String);
  EXPECT_EQ(v[5].kind(), Value::Kind::String);
  EXPECT_EQ(v[5].text(), "5");
}

TEST(ParseCase, KeepsAnAbsoluteWorkdirAndNormalisesIt) {
  const CaseSpec s = parse_case("case: m\ncommand: ls\nworkdir: /opt/x/../y/\n", "m.yaml", "/b");
  EXPECT_EQ(s.workdir, "/opt/y");
}

TEST(ParseCase, ReadsStatusWrittenAsAMapOfStatusToRegexes) {
  const CaseSpec s = parse_case(
      "case: m\ncommand: ls\nstatus:\n  oom: 'out of memory'\n  failed: [Traceback, 'Error:']\n",
      "m.yaml", "/b");
  // The case's own first, then the base vocabulary every case has (presets or not).
  ASSERT_EQ(s.status.size(), 3u + aerun::shared_status_patterns().size());
  EXPECT_EQ(s.status[3].loc.file, "preset status@1");
  EXPECT_EQ(s.status.back().loc.file, "preset status@1");
  EXPECT_EQ(s.status[0].status, "oom");
  EXPECT_EQ(s.status[0].pattern, "out of memory");
  EXPECT_EQ(s.status[1].status, "failed");
  EXPECT_EQ(s.status[1].pattern, "Traceback");
  EXPECT_EQ(s.status[2].pattern, "Error:");
  EXPECT_EQ(s.status[2].loc.line, 5);
}

TEST(ParseCase, ReadsStartupWrittenAsAPlainRegex) {
  const CaseSpec s = parse_case("case: m\ncommand: ls\nstartup: 'step 1'\n", "m.yaml", "/b");
  EXPECT_EQ(s.startup.first_step, "step 1");
  EXPECT_EQ(s.startup.loc.line, 3);
}

TEST(ParseCase, AllowsBuiltInPlaceholdersAndShellSyntax) {
  const CaseSpec s = parse_case(
      "case: m\ncommand: echo {case} {repeat} ${HOME} $(date) {{x}} | awk '{print $1}'\n", "m.yaml",
      "/b");
  EXPECT_THAT(s.command, HasSubstr("{print $1}"));
}

TEST(ParseCase, AcceptsTheDocumentedStrongholdFig7aExample) {
  const CaseSpec s = load_case(std::string(AERUN_FIXTURES) + "/cases/stronghold_fig7a.yaml");
  EXPECT_EQ(s.name, "stronghold-fig7a");
  ASSERT_EQ(s.zips.size(), 1u);
  EXPECT_THAT(texts(s.zips[0].members[0].values),
              ElementsAre("megatron-lm", "l2l", "zero-offload", "zero-infinity"));
  EXPECT_THAT(texts(s.zips[0].members[1].values), ElementsAre("32", "78", "48", "48"));
  ASSERT_EQ(s.includes.size(), 1u);
  EXPECT_THAT(texts(s.includes[0].params[1].values), ElementsAre("32", "48", "78"));
  ASSERT_EQ(s.tables.size(), 1u);
  EXPECT_EQ(s.tables[0].references.size(), 7u);
}

}  // namespace
}  // namespace aerun

namespace aerun {
namespace {

// `aerun case --stall/--first-step`: set while the file is read, before its checks, which then
// name the flag; the file's per-point template gives way; the case version does not change.
TEST(CaseOverrides, TheCommandLinesWatchdogsReplaceTheFilesAndAreCheckedAsTheyAre) {
  const std::string yaml =
      "case: w\nparams: {s: [5m, 20m]}\ncommand: train\npresets: [megatron]\n"
      "stall: \"{s}\"\nfirst_step: 10m\n";
  const CaseSpec file = parse_case(yaml, "w.yaml", "/tmp");
  EXPECT_EQ(file.stall_template, "{s}");
  const CaseSpec over = parse_case(yaml, "w.yaml", "/tmp", watchdogs("90s", "0"));
  EXPECT_EQ(over.stall_s, 90);
  EXPECT_EQ(over.stall_template, "");
  EXPECT_EQ(over.first_step_s, 0);
  EXPECT_FALSE(over.first_step_on());
  EXPECT_EQ(over.version, file.version);
  // A bad value, and a watchdog the case cannot serve, name the flag.
  try {
    parse_case(yaml, "w.yaml", "/tmp", watchdogs("soon", ""));
    ADD_FAILURE() << "no error for --stall soon";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--stall"));
  }
  try {
    parse_case("case: w\ncommand: train\n", "w.yaml", "/tmp", watchdogs("", "5m"));
    ADD_FAILURE() << "no error for --first-step without a startup pattern";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--first-step"));
  }
}

}  // namespace
}  // namespace aerun
