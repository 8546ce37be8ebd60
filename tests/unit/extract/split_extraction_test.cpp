// A log read in parts (each by its own Extractor, then appended in order) gives exactly what one
// pass gives, wherever it is cut: what `aerun ingest` relies on to read one big log on all cores.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "aerun/case/apply_presets.hpp"
#include "aerun/logread/presets.hpp"
#include "aerun/extract/extractor.hpp"
#include "extract/exact_sum.hpp"

using aerun::CaseSpec;
using aerun::ExactSum;
using aerun::Extractor;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Everything an Extractor reports, as text (numbers in hex, so that equal means the same bits).
std::string report(const Extractor& ex) {
  std::ostringstream o;
  o << std::hexfloat;
  o << "lines " << ex.lines() << "\n";
  for (const auto& m : ex.metrics())
    o << "metric " << m.name << " " << m.value << " " << m.unit << " n=" << m.count << " line "
      << m.source_line << "\n";
  for (const auto& s : ex.series()) {
    o << "series " << s.name << "\n";
    for (const auto& p : s.points)
      o << "  " << p.index << " " << p.value << " line " << p.source_line << "\n";
  }
  for (const auto& w : ex.warnings()) o << "warning " << w << "\n";
  if (const auto& st = ex.status()) o << "status " << st->status << " " << st->line_no << "\n";
  o << "startup " << ex.startup_line() << " progress " << ex.progress_seen() << " "
    << ex.progress_lines() << " " << ex.last_progress_line() << " " << ex.last_progress_text()
    << "\n";
  if (const auto c = ex.counter()) o << "counter " << c->first << "/" << c->second << "\n";
  if (const auto t = ex.job_start_time()) o << "job_start " << *t << "\n";
  if (const auto t = ex.step_time()) o << "step_time " << *t << "\n";
  aerun::RunEvidence e;
  ex.describe(e);
  for (const auto& h : e.hits)
    o << "hit " << h.status << " " << h.line_no << " after " << h.progress_after << " " << h.line
      << "\n";
  o << "end " << e.end_line << " counter_line " << e.counter_line << " last " << e.last_line
    << "\n";
  return o.str();
}

Extractor make(const CaseSpec& spec) {
  return Extractor(spec.metrics, spec.status, spec.startup, spec.completion);
}

std::string one_pass(const CaseSpec& spec, const std::string& text) {
  Extractor ex = make(spec);
  ex.feed(text);
  ex.finish();
  return report(ex);
}

// The text cut at the given line ends (offsets just after a '\n'), each part read on its own.
std::string in_parts(const CaseSpec& spec, const std::string& text, std::vector<size_t> cuts) {
  cuts.push_back(text.size());
  Extractor first = make(spec);
  size_t from = 0;
  for (size_t i = 0; i < cuts.size(); ++i) {
    const std::string_view part(text.data() + from, cuts[i] - from);
    if (i == 0) {
      first.feed(part);
    } else {
      Extractor next = first.fresh();  // the patterns of `first`, none of what it read
      next.follows_earlier_part();
      // Fed in small pieces too: where the chunks end must not matter either.
      for (size_t k = 0; k < part.size(); k += 4096) next.feed(part.substr(k, 4096));
      if (i + 1 == cuts.size()) next.finish();
      first.append(std::move(next));
    }
    from = cuts[i];
  }
  first.finish();
  return report(first);
}

std::vector<size_t> line_ends(const std::string& text) {
  std::vector<size_t> out;
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' && i + 1 < text.size()) out.push_back(i + 1);
  return out;
}

// Every preset at once (the first listed wins a shared name), as `--preset` would give them.
CaseSpec all_presets() {
  CaseSpec spec;
  spec.name = "t";
  for (const auto& p : aerun::builtin_presets())
    if (std::find(spec.presets.begin(), spec.presets.end(), p.name) == spec.presets.end())
      spec.presets.push_back(p.name);
  aerun::apply_presets(spec, {});
  return spec;
}

aerun::MetricSpec metric(std::string name, std::string pattern, aerun::Reduction r, int skip,
                         bool series = false) {
  aerun::MetricSpec m;
  m.name = std::move(name);
  m.pattern = std::move(pattern);
  m.reduce = r;
  m.skip = skip;
  m.series = series;
  return m;
}

// Metrics of every reduction, with skip counts larger than a part, series, progress, a status
// pattern, completion lines and in-log timestamps.
CaseSpec every_feature() {
  using R = aerun::Reduction;
  CaseSpec spec;
  spec.metrics = {metric("v_mean", R"(v=([^ ]+))", R::Mean, 7, true),
                  metric("v_sum", R"(v=([^ ]+))", R::Sum, 0),
                  metric("v_median", R"(v=([^ ]+))", R::Median, 3),
                  metric("v_min", R"(v=([^ ]+))", R::Min, 1),
                  metric("v_max", R"(v=([^ ]+))", R::Max, 2),
                  metric("v_first", R"(v=([^ ]+))", R::First, 5),
                  metric("v_last", R"(v=([^ ]+))", R::Last, 0),
                  metric("w_count", R"(w=(\S+))", R::Count, 4, true),
                  metric("step", R"(step (\d+)/)", R::Last, 0, true)};
  spec.metrics.back().progress = true;
  spec.status = {{"CUDA out of memory", "oom", {}}, {"Traceback", "failed", {}}};
  spec.completion.end = {"training done"};
  spec.completion.counter = {R"(step (\d+)/(\d+))"};
  spec.startup.first_step = "step 1/";
  spec.startup.job_start = R"(job start (\S+))";
  spec.startup.job_start_format = "%Y-%m-%dT%H:%M:%S";
  spec.startup.step_time = R"(^\[(\S+)\] step)";
  spec.startup.step_time_format = "%Y-%m-%dT%H:%M:%S";
  return spec;
}

// A log with every kind of line the spec above reads: numbers of all magnitudes (so that a sum
// in another order would round differently), captures that are no number, blank and CRLF lines,
// status lines between progress lines, and no final newline.
std::string generated_log(unsigned seed, int lines) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> kind(0, 11);
  std::uniform_real_distribution<double> mant(-10, 10);
  std::uniform_int_distribution<int> expo(-30, 30);
  std::ostringstream o;
  o.precision(17);
  o << "job start 2026-11-23T10:00:00\n";
  int step = 0;
  for (int i = 0; i < lines; ++i) {
    switch (kind(rng)) {
      case 0:
      case 1:
      case 2:
        o << "v=" << mant(rng) * std::pow(10.0, expo(rng)) << " w=" << i << "\n";
        break;
      case 3:
        o << "[2026-11-23T10:" << 10 + i % 50 << ":00] step " << ++step << "/500 v=" << mant(rng)
          << "\n";
        break;
      case 4:
        o << "w=x" << i << " v=nan\r\n";
        break;
      case 5:
        o << "\n";
        break;
      case 6:
        o << "RuntimeError: CUDA out of memory (" << i << ")\n";
        break;
      case 7:
        o << "Traceback (most recent call last): " << i << "\n";
        break;
      case 8:
        o << "   \n";
        break;
      default:
        o << "noise line " << i << " v=1e-300 v=3\n";
        break;
    }
  }
  o << "training done\nthe last line, unterminated";
  return o.str();
}

}  // namespace

TEST(ExactSum, GivesTheCorrectlyRoundedSumInAnyOrder) {
  ExactSum s;
  for (double x : {1e100, 1.0, -1e100}) s.add(x);
  EXPECT_EQ(s.value(), 1.0);
  ExactSum tenths;
  for (int i = 0; i < 10; ++i) tenths.add(0.1);
  EXPECT_EQ(tenths.value(), 1.0);  // a running double sum gives 0.9999999999999999
  ExactSum half_way;               // 2^53 + 1 + 2^-30: above the tie, so it rounds up to 2^53 + 2
  for (double x : {9007199254740992.0, 1.0, std::ldexp(1.0, -30)}) half_way.add(x);
  EXPECT_EQ(half_way.value(), 9007199254740994.0);
  EXPECT_EQ(ExactSum().value(), 0.0);
}

TEST(ExactSum, MergedPartsEqualOneSumWhateverTheSplitAndOrder) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mant(-1, 1);
  std::uniform_int_distribution<int> expo(-60, 60);
  std::vector<double> xs(2000);
  for (double& x : xs) x = std::ldexp(mant(rng), expo(rng));
  ExactSum whole;
  for (double x : xs) whole.add(x);
  for (int trial = 0; trial < 20; ++trial) {
    std::shuffle(xs.begin(), xs.end(), rng);
    const size_t cut = std::uniform_int_distribution<size_t>(0, xs.size())(rng);
    ExactSum a, b;
    for (size_t i = 0; i < xs.size(); ++i) (i < cut ? a : b).add(xs[i]);
    a.merge(b);
    EXPECT_EQ(a.value(), whole.value()) << "trial " << trial;
  }
}

TEST(ExactSum, ASumPastDoublesRangeIsInfinite) {
  ExactSum s;
  s.add(1.7e308);
  s.add(1.7e308);
  EXPECT_EQ(s.value(), HUGE_VAL);
}

TEST(SplitExtraction, EveryFixtureLogCutAtEveryLineGivesWhatOnePassGives) {
  const CaseSpec spec = all_presets();
  int logs = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(AERUN_FIXTURES) + "/logs")) {
    if (e.path().extension() != ".log") continue;
    ++logs;
    const std::string text = slurp(e.path());
    const std::string want = one_pass(spec, text);
    const auto ends = line_ends(text);
    // Every cut in two for short logs, 20 spread ones for long ones.
    const size_t step = std::max<size_t>(1, ends.size() / 20);
    for (size_t i = 0; i < ends.size(); i += step)
      ASSERT_EQ(in_parts(spec, text, {ends[i]}), want)
          << e.path().filename() << " cut after byte " << ends[i];
  }
  EXPECT_GE(logs, 15);
}

TEST(SplitExtraction, EveryReductionSkipSeriesStatusAndStampAgreeWhateverTheParts) {
  const CaseSpec spec = every_feature();
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const std::string text = generated_log(seed, 300);
    const std::string want = one_pass(spec, text);
    ASSERT_THAT(want, ::testing::HasSubstr("metric v_mean"));
    ASSERT_THAT(want, ::testing::HasSubstr("hit oom"));
    ASSERT_THAT(want, ::testing::HasSubstr("warning metric v_mean"));
    const auto ends = line_ends(text);
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 60; ++trial) {
      // 1 to 8 cuts, some of them next to each other (parts of one line, or of none).
      std::vector<size_t> cuts;
      const int n = std::uniform_int_distribution<int>(1, 8)(rng);
      for (int k = 0; k < n; ++k)
        cuts.push_back(ends[std::uniform_int_distribution<size_t>(0, ends.size() - 1)(rng)]);
      if (trial % 10 == 0) cuts.push_back(ends[std::min<size_t>(3, ends.size() - 1)]);
      std::sort(cuts.begin(), cuts.end());
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
      ASSERT_EQ(in_parts(spec, text, cuts), want) << "seed " << seed << " trial " << trial;
    }
  }
}

TEST(SplitExtraction, AppendingToAPartThatStopsMidLineIsRefused) {
  const CaseSpec spec = every_feature();
  Extractor first = make(spec), next = make(spec);
  first.feed("v=1\nv=2");
  next.follows_earlier_part();
  next.feed("v=3\n");
  EXPECT_THROW(first.append(std::move(next)), std::logic_error);
}

TEST(SplitExtraction, FreshCopiesReadAsNewExtractorsEvenOnSeveralThreadsAtOnce) {
  const CaseSpec spec = every_feature();
  Extractor used = make(spec);  // has read a log: its copies must start from nothing
  used.feed(generated_log(99, 300));
  used.finish();
  // Each thread reads its own log again and again, every time through a new copy; the logs are
  // made beforehand so that the threads spend their time reading, at once.
  std::vector<std::string> logs, want;
  for (unsigned k = 0; k < 6; ++k) {
    logs.push_back(generated_log(k + 1, 2000));
    want.push_back(one_pass(spec, logs.back()));
  }
  std::vector<int> wrong(logs.size(), 0);
  {
    std::vector<std::jthread> threads;
    for (unsigned k = 0; k < logs.size(); ++k)
      threads.emplace_back([&, k] {
        for (int round = 0; round < 20; ++round) {
          Extractor ex = used.fresh();
          ex.feed(logs[k]);
          ex.finish();
          wrong[k] += report(ex) != want[k];
        }
      });
  }
  for (unsigned k = 0; k < logs.size(); ++k) EXPECT_EQ(wrong[k], 0) << "log " << k + 1;
  EXPECT_NE(want[0], want[1]);
  EXPECT_NE(report(used), want[0]);  // the original keeps what it read
}
