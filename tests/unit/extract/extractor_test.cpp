#include "aerun/extract/extractor.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <re2/re2.h>
#include <algorithm>

#include <charconv>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "aerun/util/error.hpp"

using aerun::Extractor;
using aerun::MetricSpec;
using aerun::MetricValue;
using aerun::Reduction;
using aerun::StartupSpec;
using aerun::StatusPattern;

namespace {

const std::string kMegatron = std::string(AERUN_FIXTURES) + "/logs/fixture_megatron_stronghold.log";
const std::string kEzpz = std::string(AERUN_FIXTURES) + "/logs/fixture_ezpz_trainer.log";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

MetricSpec metric(std::string name, std::string pattern, Reduction r, int skip = 0) {
  MetricSpec m;
  m.name = std::move(name);
  m.pattern = std::move(pattern);
  m.reduce = r;
  m.skip = skip;
  m.loc = {"cases/fig8.yaml", 12, 5};
  return m;
}

const std::string kIterMs = R"(elapsed time per iteration \(ms\): ([\d.]+))";

Extractor run_on(const std::string& text, const std::vector<MetricSpec>& metrics,
                 const std::vector<StatusPattern>& status = {}, const StartupSpec& startup = {}) {
  Extractor ex(metrics, status, startup);
  ex.feed(text);
  ex.finish();
  return ex;
}

// The case's metric `name`, whatever else the log gives (where no metric of the case matches a
// line, the generic reader's metrics follow the case's: docs/presets.md).
MetricValue named(const Extractor& ex, const std::string& name) {
  const auto m = ex.metrics();
  const auto it =
      std::find_if(m.begin(), m.end(), [&](const MetricValue& v) { return v.name == name; });
  EXPECT_NE(it, m.end()) << name;
  return it == m.end() ? MetricValue{} : *it;
}

MetricValue only(const Extractor& ex) {
  auto m = ex.metrics();
  EXPECT_EQ(m.size(), 1u);
  return m.empty() ? MetricValue{} : m[0];
}

}  // namespace

// The six iteration times of the Megatron fixture, at lines 16, 20, 24, 29, 33, 37:
// 6051.8, 10053.0, 17616.2, 14303.4, 4123.0, 2730.6.
TEST(Extractor, MedianOfEvenCountIsMeanOfTheTwoMiddleValues) {
  auto m = only(run_on(slurp(kMegatron), {metric("iter_ms", kIterMs, Reduction::Median)}));
  EXPECT_EQ(m.name, "iter_ms");
  EXPECT_DOUBLE_EQ(m.value, (6051.8 + 10053.0) / 2);
  EXPECT_EQ(m.count, 6);
  EXPECT_EQ(m.source_line, 37);  // the last value used
}

TEST(Extractor, MedianOfOddCountIsTheMiddleValue) {
  auto m = only(run_on(slurp(kMegatron), {metric("iter_ms", kIterMs, Reduction::Median, 1)}));
  EXPECT_DOUBLE_EQ(m.value, 10053.0);  // of 10053.0 17616.2 14303.4 4123.0 2730.6
  EXPECT_EQ(m.count, 5);
}

TEST(Extractor, FirstLastMinMaxReportTheLineOfTheChosenValue) {
  const std::string log = slurp(kMegatron);
  auto first = only(run_on(log, {metric("t", kIterMs, Reduction::First)}));
  EXPECT_DOUBLE_EQ(first.value, 6051.8);
  EXPECT_EQ(first.source_line, 16);
  auto last = only(run_on(log, {metric("t", kIterMs, Reduction::Last)}));
  EXPECT_DOUBLE_EQ(last.value, 2730.6);
  EXPECT_EQ(last.source_line, 37);
  auto min = only(run_on(log, {metric("t", kIterMs, Reduction::Min)}));
  EXPECT_DOUBLE_EQ(min.value, 2730.6);
  EXPECT_EQ(min.source_line, 37);
  auto max = only(run_on(log, {metric("t", kIterMs, Reduction::Max)}));
  EXPECT_DOUBLE_EQ(max.value, 17616.2);
  EXPECT_EQ(max.source_line, 24);
  EXPECT_EQ(max.count, 6);
}

TEST(Extractor, MeanAndSumUseEveryValueAndTheLastLine) {
  const std::string log = slurp(kMegatron);
  const double sum = 6051.8 + 10053.0 + 17616.2 + 14303.4 + 4123.0 + 2730.6;
  auto mean = only(run_on(log, {metric("t", kIterMs, Reduction::Mean)}));
  EXPECT_NEAR(mean.value, sum / 6, 1e-9);
  EXPECT_EQ(mean.source_line, 37);
  auto total = only(run_on(log, {metric("t", kIterMs, Reduction::Sum)}));
  EXPECT_NEAR(total.value, sum, 1e-9);
}

TEST(Extractor, CountReportsMatchesAndIsReportedEvenWhenZero) {
  auto ex = run_on(slurp(kMegatron),
                   {metric("tflops_lines", "(Effective Tera Flops)", Reduction::Count),
                    metric("ooms", "(CUDA out of memory)", Reduction::Count),
                    metric("absent", "no such line: ([0-9]+)", Reduction::Last)},
                   {}, {});
  auto ms = ex.metrics();
  ASSERT_EQ(ms.size(), 2u);  // "absent" has no value and is left out
  EXPECT_EQ(ms[0].name, "tflops_lines");
  EXPECT_DOUBLE_EQ(ms[0].value, 6);
  EXPECT_EQ(ms[0].source_line, 38);
  EXPECT_EQ(ms[1].name, "ooms");
  EXPECT_DOUBLE_EQ(ms[1].value, 0);
  EXPECT_EQ(ms[1].count, 0);
}

TEST(Extractor, MetricsWithTwoGroupsAreRejectedEvenIfOptional) {
  EXPECT_THROW(Extractor({metric("absent", "(a)(b)?", Reduction::Last)}, {}, {}),
               aerun::InputError);
}

TEST(Extractor, SkipDropsWarmUpMatchesBeforeReducing) {
  auto m = only(run_on(slurp(kMegatron), {metric("t", kIterMs, Reduction::Median, 2)}));
  // 17616.2 14303.4 4123.0 2730.6 remain.
  EXPECT_DOUBLE_EQ(m.value, (4123.0 + 14303.4) / 2);
  EXPECT_EQ(m.count, 4);
  auto all_skipped = run_on(slurp(kMegatron), {metric("t", kIterMs, Reduction::Last, 6)});
  EXPECT_TRUE(all_skipped.metrics().empty());
}

TEST(Extractor, ScaleMultipliesEveryValue) {
  auto spec = metric("dt_ms", R"(dt=([\d.]+))", Reduction::Max);
  spec.scale = 1000;
  spec.unit = "ms";
  auto m = only(run_on(slurp(kEzpz), {spec}));
  EXPECT_DOUBLE_EQ(m.value, 0.306263 * 1000);  // step=20
  EXPECT_EQ(m.unit, "ms");
  EXPECT_EQ(m.source_line, 7);
}

TEST(Extractor, SeriesKeepsEveryValueAfterSkipWithItsIndexAndLine) {
  auto spec = metric("loss", R"(\sloss=([\d.]+))", Reduction::Last, 1);
  spec.series = true;
  auto ex = run_on(slurp(kEzpz), {spec});
  auto s = ex.series();
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "loss");
  ASSERT_EQ(s[0].points.size(), 9u);  // steps 20..100
  EXPECT_EQ(s[0].points[0].index, 0);
  EXPECT_DOUBLE_EQ(s[0].points[0].value, 2.660851);
  EXPECT_EQ(s[0].points[0].source_line, 7);
  EXPECT_EQ(s[0].points[8].index, 8);
  EXPECT_DOUBLE_EQ(s[0].points[8].value, 2.445556);
  EXPECT_EQ(s[0].points[8].source_line, 15);
  EXPECT_DOUBLE_EQ(only(ex).value, 2.445556);
}

TEST(Extractor, CapturesThatAreNotFiniteNumbersAreSkipped) {
  auto m = only(run_on("grad norm: 3.5 |\ngrad norm: inf |\ngrad norm: nan |\ngrad norm: x |\n",
                       {metric("gn", R"(grad norm: (\S+))", Reduction::Max)}));
  EXPECT_DOUBLE_EQ(m.value, 3.5);
  EXPECT_EQ(m.count, 1);
}

TEST(Extractor, MegatronStyleMetricsTogether) {
  auto ex = run_on(slurp(kMegatron),
                   {metric("iter_ms", kIterMs, Reduction::Median),
                    metric("lm_loss", R"(lm loss: ([0-9.E+-]+))", Reduction::Last),
                    metric("sps", R"(SamplesPerSecond: ([\d.]+))", Reduction::First),
                    metric("tflops", R"(Tera Flops per GPU: ([\d.]+))", Reduction::Max)});
  auto ms = ex.metrics();
  ASSERT_EQ(ms.size(), 4u);
  EXPECT_DOUBLE_EQ(ms[1].value, 11.34986);
  EXPECT_DOUBLE_EQ(ms[2].value, 0.6609623921101718);
  EXPECT_EQ(ms[2].source_line, 18);
  EXPECT_DOUBLE_EQ(ms[3].value, 10.93);
  EXPECT_EQ(ms[3].source_line, 38);
  EXPECT_EQ(ex.lines(), 40);
}

TEST(Extractor, StatusIsTheFirstMatchingLineWithItsText) {
  auto ex = run_on(slurp(kMegatron), {},
                   {{"Traceback|Error", "failed", {}}, {R"(\[exiting program)", "exited", {}}});
  ASSERT_TRUE(ex.status().has_value());
  EXPECT_EQ(ex.status()->status, "exited");
  EXPECT_EQ(ex.status()->line_no, 28);
  EXPECT_EQ(ex.status()->line, "[exiting program at iteration 50] datetime: 2022-06-29 03:08:05 ");
}

TEST(Extractor, StatusOnTheSameLineGoesToTheFirstListedPattern) {
  auto ex = run_on(
      slurp(kMegatron), {},
      {{"make: Leaving", "second", {}}, {"NumWorkers", "later", {}}, {"make: ", "third", {}}});
  EXPECT_EQ(ex.status()->status, "third");  // line 10 "make: Entering" is the earliest
  EXPECT_EQ(ex.status()->line_no, 10);
  auto same_line = run_on(slurp(kMegatron), {},
                          {{"Entering", "listed_first", {}}, {"make:", "listed_second", {}}});
  EXPECT_EQ(same_line.status()->status, "listed_first");
}

TEST(Extractor, StatusLineIsTruncatedTo500Bytes) {
  auto ex = run_on(std::string(800, 'x') + " CUDA out of memory\n", {},
                   {{"CUDA out of memory", "oom", {}}});
  EXPECT_EQ(ex.status()->line, std::string(500, 'x'));
}

TEST(Extractor, NoStatusWhenNothingMatches) {
  auto ex = run_on(slurp(kMegatron), {}, {{"CUDA out of memory", "oom", {}}});
  EXPECT_FALSE(ex.status().has_value());
}

TEST(Extractor, StartupLineIsTheFirstStepLine) {
  StartupSpec startup{.first_step = R"(\[Rank 0\] step=0,)"};
  Extractor ex({}, {}, startup);
  const std::string log = slurp(kEzpz);
  const size_t cut = log.find("step=0,");
  ex.feed(log.substr(0, cut));
  EXPECT_FALSE(ex.startup_seen());
  EXPECT_EQ(ex.startup_line(), 0);
  ex.feed(log.substr(cut));  // the runner timestamps this chunk
  EXPECT_TRUE(ex.startup_seen());
  EXPECT_EQ(ex.startup_line(), 5);
}

TEST(Extractor, StartupIsSeenOnlyOnceTheLineIsComplete) {
  Extractor ex({}, {}, StartupSpec{.first_step = R"(iteration\s+\d+/)"});
  ex.feed(" iteration       30/      50 | elapsed");
  EXPECT_FALSE(ex.startup_seen());
  ex.feed(" time\n");
  EXPECT_EQ(ex.startup_line(), 1);
}

TEST(Extractor, UnterminatedLastLineCountsAfterFinish) {
  Extractor ex({metric("t", kIterMs, Reduction::Last)}, {}, {});
  ex.feed("a\nelapsed time per iteration (ms): 12.5");
  EXPECT_EQ(ex.lines(), 1);
  EXPECT_TRUE(ex.metrics().empty());
  ex.finish();
  EXPECT_EQ(ex.lines(), 2);
  EXPECT_DOUBLE_EQ(only(ex).value, 12.5);
  EXPECT_EQ(only(ex).source_line, 2);
}

namespace {

std::vector<MetricSpec> all_metrics() {
  auto loss = metric("loss", R"(\sloss=([\d.]+))", Reduction::Median);
  loss.series = true;
  auto iter = metric("iter_ms", kIterMs, Reduction::Median, 1);
  iter.series = true;
  return {iter, loss, metric("lm_loss", R"(lm loss: ([0-9.E+-]+))", Reduction::Mean),
          metric("sps", R"((?:SamplesPerSecond: |sps=)([\d.]+))", Reduction::Min),
          metric("n", "(e2e-time)", Reduction::Count)};
}

struct Outcome {
  std::vector<MetricValue> metrics;
  std::vector<aerun::MetricSeries> series;
  std::optional<Extractor::StatusHit> status;
  long long startup_line, lines;
};

Outcome outcome(const Extractor& ex) {
  return {ex.metrics(), ex.series(), ex.status(), ex.startup_line(), ex.lines()};
}

void expect_same(const Outcome& a, const Outcome& b) {
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (size_t i = 0; i < a.metrics.size(); ++i) {
    EXPECT_EQ(a.metrics[i].name, b.metrics[i].name);
    EXPECT_DOUBLE_EQ(a.metrics[i].value, b.metrics[i].value) << a.metrics[i].name;
    EXPECT_EQ(a.metrics[i].count, b.metrics[i].count) << a.metrics[i].name;
    EXPECT_EQ(a.metrics[i].source_line, b.metrics[i].source_line) << a.metrics[i].name;
  }
  ASSERT_EQ(a.series.size(), b.series.size());
  for (size_t i = 0; i < a.series.size(); ++i) {
    ASSERT_EQ(a.series[i].points.size(), b.series[i].points.size());
    for (size_t j = 0; j < a.series[i].points.size(); ++j) {
      EXPECT_EQ(a.series[i].points[j].value, b.series[i].points[j].value);
      EXPECT_EQ(a.series[i].points[j].source_line, b.series[i].points[j].source_line);
    }
  }
  ASSERT_EQ(a.status.has_value(), b.status.has_value());
  if (a.status) {
    EXPECT_EQ(a.status->status, b.status->status);
    EXPECT_EQ(a.status->line, b.status->line);
    EXPECT_EQ(a.status->line_no, b.status->line_no);
  }
  EXPECT_EQ(a.startup_line, b.startup_line);
  EXPECT_EQ(a.lines, b.lines);
}

const std::vector<StatusPattern> kStatus = {{"exiting program", "exited", {}},
                                            {"NumWorkers", "workers", {}}};
const StartupSpec kStartup{.first_step = R"(iteration\s+30/|step=0,)"};

}  // namespace

TEST(Extractor, FeedingByteByByteEqualsFeedingAtOnce) {
  for (const auto& path : {kMegatron, kEzpz}) {
    const std::string log = slurp(path);
    auto whole = outcome(run_on(log, all_metrics(), kStatus, kStartup));
    Extractor bytes(all_metrics(), kStatus, kStartup);
    for (char c : log) bytes.feed(std::string_view(&c, 1));
    bytes.finish();
    expect_same(whole, outcome(bytes));
    EXPECT_FALSE(whole.metrics.empty());
  }
}

TEST(Extractor, ChunkBoundariesAnywhereGiveTheSameResult) {
  const std::string log = slurp(kMegatron) + slurp(kEzpz);
  auto whole = outcome(run_on(log, all_metrics(), kStatus, kStartup));
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    Extractor ex(all_metrics(), kStatus, kStartup);
    size_t pos = 0;
    while (pos < log.size()) {
      const size_t n = std::uniform_int_distribution<size_t>(0, 300)(rng);
      ex.feed(std::string_view(log).substr(pos, n));
      pos += n;
    }
    ex.finish();
    expect_same(whole, outcome(ex));
  }
}

TEST(Extractor, CrLfLinesGiveTheSameResultAsLf) {
  const std::string log = slurp(kMegatron);
  std::string crlf;
  for (char c : log) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  auto lf = outcome(run_on(log, all_metrics(), kStatus, kStartup));
  auto cr = outcome(run_on(crlf, all_metrics(), kStatus, kStartup));
  expect_same(lf, cr);
  EXPECT_EQ(cr.status->line.find('\r'), std::string::npos);
}

TEST(Extractor, InvalidRegexErrorNamesTheMetricAndItsPlace) {
  try {
    Extractor({metric("iter_ms", R"(elapsed time (ms: ([\d.]+))", Reduction::Median)}, {}, {});
    FAIL() << "no error";
  } catch (const aerun::InputError& e) {
    EXPECT_THAT(e.what(),
                testing::HasSubstr("cases/fig8.yaml:12:5: metrics.iter_ms: invalid regex"));
    EXPECT_EQ(e.key(), "metrics.iter_ms");
  }
}

TEST(Extractor, WrongCaptureGroupCountErrorNamesTheMetric) {
  for (const char* pattern : {"elapsed time", "(a) ([0-9]+)"}) {
    try {
      Extractor({metric("iter_ms", pattern, Reduction::Median)}, {}, {});
      FAIL() << "no error for " << pattern;
    } catch (const aerun::InputError& e) {
      EXPECT_THAT(e.what(), testing::HasSubstr("metrics.iter_ms: pattern must have exactly one "
                                               "capture group"));
      EXPECT_EQ(e.loc().line, 12);
    }
  }
}

TEST(Extractor, InvalidStatusAndStartupPatternsAreInputErrors) {
  EXPECT_THROW(Extractor({}, {{"(oops", "oom", {"c.yaml", 3, 1}}}, {}), aerun::InputError);
  EXPECT_THROW(Extractor({}, {}, StartupSpec{.first_step = "[", .loc = {"c.yaml", 4, 1}}),
               aerun::InputError);
}

// Patterns whose literals have escapes, quantifiers, classes, groups and alternation: the
// extractor must find exactly the lines a plain RE2::PartialMatch on every line finds.
TEST(Extractor, LiteralPrefilterNeverChangesResults) {
  const std::vector<std::string> patterns = {
      kIterMs,
      R"(lm loss: ([0-9.E+-]+))",
      R"((?i)LM LOSS: (\S+))",
      R"((?:elapsed|e2e-time)[^:]*: ([\d.]+))",
      R"(SamplesPerSecond: ([\d.]+)|sps=[\d.]+)",
      R"(step=(\d+)(?:,| loss))",
      R"(\[Rank 0\] step=(\d+),)",
      R"(time \(ms\) \| e2e-time: ([\d.]+))",
      R"(^ iteration\s+(\d+))",
      R"(iterations?\s*(\d+)/\s+50 \|)",
      R"(Flops per GPU: (\d+)\.\d+ and)",
      R"(x{2,}|([0-9]+) B$)",
      R"(mode?l (p)arallel)",
      R"(rank=(\d)[;,] local_rank)",
      R"('(\w+)'\]: 'What)",
      R"(CUDA (out) of memory)",
      R"(iteration \((\w+)\):)",       // the first "iteration" of the line does not match
      R"(time (\(ms\)) \| e2e-time)",  // nor does the first "time"
      R"(e(\d))",
  };
  const std::string log = slurp(kMegatron) + slurp(kEzpz);
  std::vector<std::string> lines;
  std::stringstream ss(log);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  for (const auto& p : patterns) {
    RE2 re(p);
    ASSERT_EQ(re.NumberOfCapturingGroups(), 1) << p;
    long long expected = 0, first_line = 0, last_line = 0;
    for (size_t i = 0; i < lines.size(); ++i)
      if (RE2::PartialMatch(lines[i], re)) {
        ++expected;
        last_line = static_cast<long long>(i) + 1;
        if (!first_line) first_line = last_line;
      }
    auto ex = run_on(log, {metric("m", p, Reduction::Count)}, {{p, "hit", {}}},
                     StartupSpec{.first_step = p});
    EXPECT_EQ(named(ex, "m").count, expected) << p;
    EXPECT_EQ(named(ex, "m").source_line, last_line) << p;
    EXPECT_EQ(ex.startup_line(), first_line) << p;
    EXPECT_EQ(ex.status().has_value() ? ex.status()->line_no : 0, first_line) << p;
  }
}

// The megatron preset's patterns go through the RE2-free matcher: on random lines, every metric
// takes exactly the lines and values a plain RE2::PartialMatch on every line gives (a lone '\r'
// ends a line, "\r\n" is one line end).
TEST(Extractor, FastPathNeverChangesResults) {
  const std::vector<std::string> patterns = {
      R"(iteration\s+(\d+)/\s*\d+)",
      R"(lm loss: ([0-9.]+(?:[eE][+-]?[0-9]+)?))",
      R"(number of skipped iterations:\s*(\d+))",
      R"(elapsed time per iteration \(s\): ([0-9.]+(?:[eE][+-]?[0-9]+)?))",
  };
  const std::vector<std::string> pieces = {
      "iteration", " iteration ",
      "lm loss: ", "number of skipped iterations:",
      "(s): ",     "elapsed time per iteration",
      "1",         "42",
      "/",         "/ ",
      " 100",      "1.5e-3",
      "2E+",       ".5",
      "1.2.3",     "nan",
      "-3",        " ",
      "\t",        "\r",
      "|",         "e",
      "x",         "subiteration",
  };
  std::mt19937 rng(5);
  std::string log;
  std::vector<std::string> lines;
  for (int i = 0; i < 4000; ++i) {
    std::string line;
    for (size_t k = 1 + rng() % 8; k > 0; --k) line += pieces[rng() % pieces.size()];
    log += line;
    log += '\n';
    std::string_view rest = line;
    if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
    for (size_t cr; (cr = rest.find('\r')) != std::string_view::npos; rest.remove_prefix(cr + 1))
      lines.emplace_back(rest.substr(0, cr));
    lines.emplace_back(rest);
  }
  for (const auto& p : patterns) {
    MetricSpec m = metric("m", p, Reduction::Count);
    m.series = true;
    const auto ex = run_on(log, {m});
    std::vector<aerun::SeriesPoint> want;
    long long count = 0;
    const RE2 re(p);
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string cap;
      if (!RE2::PartialMatch(lines[i], re, &cap)) continue;
      ++count;
      double v = 0;  // a finite number, all of the capture (out of range: no value)
      const auto [end, ec] = std::from_chars(cap.data(), cap.data() + cap.size(), v);
      if (!cap.empty() && ec == std::errc() && end == cap.data() + cap.size() && std::isfinite(v))
        want.push_back({count - 1, v, static_cast<long long>(i) + 1});
    }
    EXPECT_EQ(named(ex, "m").count, count) << p;
    const auto series = ex.series().at(0).points;
    ASSERT_EQ(series.size(), want.size()) << p;
    for (size_t k = 0; k < want.size(); ++k) {
      EXPECT_EQ(series[k].index, want[k].index) << p;
      EXPECT_EQ(series[k].value, want[k].value) << p;
      EXPECT_EQ(series[k].source_line, want[k].source_line) << p;
    }
  }
}

TEST(ExtractFile, StreamsAFileLikeFeedingIt) {
  auto from_file = outcome(aerun::extract_file(kMegatron, all_metrics(), kStatus, kStartup));
  expect_same(from_file, outcome(run_on(slurp(kMegatron), all_metrics(), kStatus, kStartup)));
  EXPECT_EQ(from_file.lines, 40);
}

TEST(ExtractFile, UnreadableFileIsASystemError) {
  EXPECT_THROW(aerun::extract_file("/nonexistent/aerun.log", {}, {}, {}), aerun::SystemError);
}

// What the log gave that could not be used is counted, not dropped silently.
TEST(ExtractorWarnings, CapturesThatAreNotFiniteDecimalNumbersAreCountedWithTheFirstOne) {
  const std::string log =
      "loss: 2.5\nloss: nan\nloss: inf\nloss: 0x1p3\nloss: 1e999\nloss: 2.0\nloss: -inf\n";
  auto ex = run_on(log, {metric("loss", R"(loss: (\S+))", Reduction::Mean)});
  EXPECT_DOUBLE_EQ(only(ex).value, 2.25);
  EXPECT_EQ(only(ex).count, 2);
  EXPECT_THAT(ex.warnings(),
              testing::ElementsAre("metric loss: 5 captures were not a finite decimal number and "
                                   "not used (first: line 2, \"nan\")"));
}

TEST(ExtractorWarnings, CountCountsMatchingLinesWhateverTheyCaptureWithoutAWarning) {
  auto ex = run_on("CUDA out of memory\nok\nCUDA out of memory\n",
                   {metric("ooms", "(CUDA out of memory)", Reduction::Count)});
  EXPECT_DOUBLE_EQ(only(ex).value, 2);
  EXPECT_TRUE(ex.warnings().empty());
}

TEST(ExtractorWarnings, ALineLongerThan64MiBIsCountedOnceWhateverTheChunks) {
  const std::string big(65u << 20, 'x');
  Extractor ex({metric("loss", R"(loss: ([\d.]+))", Reduction::Last)}, {}, {});
  ex.feed("loss: 1\n");
  for (size_t at = 0; at < big.size(); at += 1u << 20) ex.feed(big.substr(at, 1u << 20));
  ex.feed(" loss: 3\nloss: 4\n");  // the end of line 2, past the cut, is not seen
  ex.finish();
  EXPECT_DOUBLE_EQ(only(ex).value, 4);
  EXPECT_EQ(only(ex).count, 2);
  EXPECT_THAT(ex.warnings(),
              testing::ElementsAre("1 line was longer than 64 MiB: only the first 64 MiB of each "
                                   "matched (first: line 2)"));
  EXPECT_EQ(ex.lines(), 3);
}

TEST(ExtractorWarnings, ACleanLogHasNone) {
  auto ex = run_on(slurp(kMegatron), {metric("t", kIterMs, Reduction::Mean)});
  EXPECT_TRUE(ex.warnings().empty());
}

TEST(Extractor, ACompletionCounterIsTheLeftmostMatchWhereverItsLiteralFirstOccurs) {
  aerun::CompletionSpec completion;
  completion.counter = {R"(iteration\s+(\d+)/\s*(\d+) \|)", R"(step=(\d+) of (\d+))"};
  Extractor ex({}, {}, {}, completion);
  // The literal "iteration" occurs before the match on the first line, and in the second
  // pattern's line only where that pattern cannot match; the last matching line wins.
  ex.feed(
      "resuming iteration counter | iteration   120/ 1000 | lm loss: 3.1\n"
      "iteration 7 of 9 | iteration 8/9 without the bar\n"
      "step=3 step=4 of 12\n");
  ex.finish();
  ASSERT_TRUE(ex.counter());
  EXPECT_EQ(*ex.counter(), std::make_pair(4.0, 12.0));
  Extractor first({}, {}, {}, completion);
  first.feed(
      "resuming iteration counter | iteration   120/ 1000 | lm loss: 3.1\n"
      "iteration 7 of 9 | iteration 8/9 without the bar\n");
  first.finish();
  ASSERT_TRUE(first.counter());
  EXPECT_EQ(*first.counter(), std::make_pair(120.0, 1000.0));
}

// Beneath a case whose metrics match no line, the generic reader's metrics follow, but never under
// a name of the case's: a metric the case names stays the case's, with or without a value.
TEST(Extractor, TheGenericReadersMetricsNeverTakeACaseMetricsName) {
  // A real detectron2 log (tests/fixtures/logs/generic/README.md): "total_loss: 0.3553" is the
  // generic reader's `loss`, "iter: 299" its `step`.
  const std::string log =
      slurp(std::string(AERUN_FIXTURES) + "/logs/generic/detectron2/d2-balloon-maskrcnn-ok.log");
  const auto ex = run_on(log, {metric("loss", R"(no such line (\d+))", Reduction::Last)});
  const auto m = ex.metrics();
  EXPECT_TRUE(ex.generic_used());
  EXPECT_TRUE(
      std::none_of(m.begin(), m.end(), [](const MetricValue& v) { return v.name == "loss"; }));
  EXPECT_DOUBLE_EQ(named(ex, "step").value, 299);
}
