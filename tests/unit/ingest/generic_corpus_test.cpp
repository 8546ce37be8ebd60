// `aerun ingest --preset generic` on the corpus of real logs of trainers no preset covers
// (tests/fixtures/logs/generic/: each log cited in its README, each expectation in expect-*.yaml,
// written by the person who collected the log, before the reader was run on it). Each expected
// value's text is checked to be on its line of the log first. The figures are printed; the floors
// below hold what the reader reaches today, so that nothing gets worse (issue 39 asks for 95 % of
// the statuses and 90 % of the metrics: not reached yet, see the note).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <utility>

#include "../line_values.hpp"
#include "aerun/case/apply_presets.hpp"
#include "aerun/ingest/ingest.hpp"

namespace {

const std::string kRoot = std::string(AERUN_FIXTURES) + "/logs/generic";
const std::string kHoldout = std::string(AERUN_FIXTURES) + "/logs/generic-holdout";

// Reduced by their mean over the log (as the presets reduce them): the value's line is the last
// one used, so only the line is compared; and by their maximum: only the value.
const std::set<std::string> kMeanNames = {"iter_ms",          "data_ms",     "samples_per_s",
                                          "tokens_per_s",     "steps_per_s", "tflops_per_gpu",
                                          "tokens_per_gpu_s", "mfu"};
const std::set<std::string> kMaxNames = {"memory_gb"};

// What the reader reaches on the corpus today (the figures printed), less a little.
constexpr double kStatusFloor = 85;
constexpr double kMetricFloor = 80;
// Its blind score on the hold-out, the one time it was taken (tests/fixtures/logs/
// generic-holdout/README.md), less a little: a change of the reader must not read that set worse.
constexpr double kHoldoutStatusFloor = 80;
constexpr double kHoldoutMetricFloor = 68;

aerun::CaseSpec generic_spec() {
  aerun::CaseSpec spec;
  spec.name = "generic";
  aerun::apply_presets(spec, {});  // the base vocabulary alone
  spec.completion.shape_required = true;
  spec.completion.formats = "generic";
  return spec;
}

struct Score {
  int statuses = 0, statuses_right = 0, metrics = 0, metrics_right = 0;
  std::set<std::string> trainers;
};

// Every log of the expect-*.yaml files in root read with --preset generic, against them; misses
// gets a line for each status or metric not read as expected.
void score(const std::string& root, Score& s, std::string& misses) {
  const aerun::CaseSpec spec = generic_spec();
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("expect-") || !name.ends_with(".yaml")) continue;
    for (const YAML::Node& e : YAML::LoadFile(entry.path().string())) {
      const std::string file = e["file"].as<std::string>();
      SCOPED_TRACE(file);
      const std::string path = root + "/" + file;
      ASSERT_TRUE(std::filesystem::exists(path));
      s.trainers.insert(e["trainer"].as<std::string>());
      const auto lines = aerun::testing::lines_of(path);
      const aerun::RunRecord r = aerun::ingest_file(spec, path, {});
      ++s.statuses;
      if (r.status == e["status"].as<std::string>())
        ++s.statuses_right;
      else
        misses += file + ": status " + r.status + ", expected " + e["status"].as<std::string>() +
                  " (" + r.reason + ")\n";
      for (const YAML::Node& m : e["metrics"]) {
        const std::string metric = m["name"].as<std::string>();
        const auto line = m["line"].as<long long>();
        ASSERT_LE(line, static_cast<long long>(lines.size()));
        EXPECT_NE(lines[static_cast<size_t>(line - 1)].find(m["text"].as<std::string>()),
                  std::string::npos)
            << metric << " at line " << line;
        const double want = m["value"].as<double>();
        if (std::isnan(want)) continue;  // aerun stores no NaN: the status says the divergence
        ++s.metrics;
        const auto it = std::find_if(r.metrics.begin(), r.metrics.end(),
                                     [&](const aerun::MetricValue& v) { return v.name == metric; });
        bool right = it != r.metrics.end();
        if (right && !kMaxNames.count(metric)) right = it->source_line == line;
        if (right && !kMeanNames.count(metric))
          right = std::abs(it->value - want) <= 1e-9 * std::max(1.0, std::abs(want));
        if (right)
          ++s.metrics_right;
        else
          misses += file + ": " + metric + " expected " + m["value"].as<std::string>() + " at " +
                    std::to_string(line) +
                    (it == r.metrics.end() ? std::string(", not read")
                                           : ", read " + std::to_string(it->value) + " at " +
                                                 std::to_string(it->source_line)) +
                    "\n";
      }
    }
  }
}

// The percentages of statuses and metrics read right, printed after `what`'s counts.
std::pair<double, double> print_figures(const char* what, const Score& s) {
  const double statuses = 100.0 * s.statuses_right / std::max(1, s.statuses);
  const double metrics = 100.0 * s.metrics_right / std::max(1, s.metrics);
  std::printf(
      "generic %s: %d logs of %zu trainers; statuses %d/%d (%.1f %%), metrics %d/%d (%.1f %%)\n",
      what, s.statuses, s.trainers.size(), s.statuses_right, s.statuses, statuses, s.metrics_right,
      s.metrics, metrics);
  return {statuses, metrics};
}

TEST(GenericCorpus, StatusesAndMetricsOfLogsNoPresetKnows) {
  Score s;
  std::string misses;
  score(kRoot, s, misses);
  const auto [statuses, metrics] = print_figures("corpus", s);
  std::printf("%s", misses.c_str());
  EXPECT_GE(s.statuses, 80);
  EXPECT_GE(s.trainers.size(), 40u);
  EXPECT_GE(statuses, kStatusFloor);
  EXPECT_GE(metrics, kMetricFloor);
}

TEST(GenericCorpus, TheHoldOutIsReadNoWorseThanWhenItWasFirstScoredBlind) {
  Score s;
  std::string misses;
  score(kHoldout, s, misses);
  // Only the figures: the hold-out's misses are for checking the reader, not for writing rules.
  const auto [statuses, metrics] = print_figures("hold-out", s);
  EXPECT_GE(s.statuses, 30);
  EXPECT_GE(statuses, kHoldoutStatusFloor);
  EXPECT_GE(metrics, kHoldoutMetricFloor);
}

}  // namespace
