// A run's extraction on its own thread (issue 28): what it reports is what the chunks said, timed
// when each chunk was read; finishing waits for every chunk.
#include "run/extraction_worker.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace aerun {
namespace {

std::unique_ptr<Extractor> startup_extractor() {
  StartupSpec startup;
  startup.first_step = R"(iteration\s+\d+/)";
  return std::make_unique<Extractor>(std::vector<MetricSpec>{}, std::vector<StatusPattern>{},
                                     startup);
}

TEST(ExtractionWorker, ReportsTheFirstStepAtTheTimeItsChunkWasReadAndFinishesEveryChunk) {
  ExtractionWorker w(startup_extractor());
  w.push("loading\n", 100.0, 1.0);
  w.push(" iteration        1/      50 | elapsed time per iteration (ms): 10.0 |\n", 105.5, 6.5);
  w.push(" iteration        2/      50 |\n", 107.0, 8.0);
  Extractor& ex = w.finish();
  EXPECT_TRUE(w.caught_up());
  EXPECT_TRUE(ex.startup_seen());
  EXPECT_EQ(ex.startup_line(), 2);
  const ExtractionWorker::Progress p = w.progress();
  EXPECT_TRUE(p.startup_seen);
  ASSERT_TRUE(p.startup_time.has_value());
  EXPECT_EQ(*p.startup_time, 105.5);  // when the chunk was read, not when it was extracted
  EXPECT_EQ(ex.lines(), 3);
}

}  // namespace
}  // namespace aerun
