// What the Extractor tells the judge about a log: every status line that may count (with the
// progress after it), progress lines, the completion end line and counter, the last line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "aerun/extract/extractor.hpp"

namespace aerun {
namespace {

MetricSpec progress_metric() {
  MetricSpec m;
  m.name = "iteration";
  m.pattern = R"(iteration\s+(\d+)/)";
  m.progress = true;
  return m;
}

std::vector<StatusPattern> statuses() {
  return {{"CUDA out of memory", "oom", {}},
          {"Traceback \\(most recent call last\\)", "failed", {}},
          {"CANCELLED AT \\S+ \\*\\*\\*", "cancelled", {}}};
}

CompletionSpec completion() {
  CompletionSpec c;
  c.end = {R"(\[after training is done\])"};
  c.counter = {R"(iteration\s+(\d+)/\s*(\d+))"};
  return c;
}

RunEvidence evidence_of(const std::string& log, size_t chunk = 0) {
  Extractor ex({progress_metric()}, statuses(), {}, completion());
  if (chunk == 0) {
    ex.feed(log);
  } else {
    for (size_t i = 0; i < log.size(); i += chunk) ex.feed(log.substr(i, chunk));
  }
  ex.finish();
  RunEvidence e;
  ex.describe(e);
  return e;
}

std::string iteration(int i, int of = 1000) {
  return " iteration " + std::to_string(i) + "/ " + std::to_string(of) + " | lm loss: 1.0\n";
}

TEST(RunEvidence, CountsProgressLinesAndKeepsTheLastCounter) {
  std::string log = "starting\n";
  for (int i = 1; i <= 49; ++i) log += iteration(i);
  for (size_t chunk : {size_t{0}, size_t{7}}) {
    const RunEvidence e = evidence_of(log, chunk);
    EXPECT_TRUE(e.progress_expected);
    EXPECT_EQ(e.progress_lines, 49);
    EXPECT_EQ(e.last_progress_line, 50);
    ASSERT_TRUE(e.counter_done && e.counter_planned);
    EXPECT_EQ(*e.counter_done, 49);
    EXPECT_EQ(*e.counter_planned, 1000);
    EXPECT_EQ(e.counter_line, 50);
    EXPECT_EQ(e.end_line, 0);
    EXPECT_TRUE(e.completion_configured);
    EXPECT_EQ(e.last_line, "iteration 49/ 1000 | lm loss: 1.0");
    EXPECT_EQ(judge_run(e).status, "incomplete");
  }
}

TEST(RunEvidence, AStatusLineCarriesHowManyProgressLinesFollowedIt) {
  const std::string log = iteration(1) + "Traceback (most recent call last):\n" + iteration(2) +
                          iteration(3) + "CUDA out of memory. Tried to allocate 2 GiB\n";
  const RunEvidence e = evidence_of(log);
  ASSERT_EQ(e.hits.size(), 2u);
  EXPECT_EQ(e.hits[0].status, "failed");
  EXPECT_EQ(e.hits[0].line_no, 2);
  EXPECT_EQ(e.hits[0].progress_after, 2);
  EXPECT_EQ(e.hits[1].status, "oom");
  EXPECT_EQ(e.hits[1].line_no, 5);
  EXPECT_EQ(e.hits[1].progress_after, 0);
  EXPECT_EQ(judge_run(e), (Verdict{"oom", "line 5: CUDA out of memory. Tried to allocate 2 GiB"}));
}

TEST(RunEvidence, KeepsTheFirstLineOfAStatusAndTheFirstAfterEachRecentProgressLine) {
  // A million tracebacks must not grow memory: one line per status and progress epoch is kept.
  std::string log;
  for (int i = 1; i <= 10; ++i) {
    log += iteration(i);
    for (int k = 0; k < 50; ++k) log += "Traceback (most recent call last):\n";
  }
  const RunEvidence e = evidence_of(log, 4096);
  ASSERT_EQ(e.hits.size(), 4u);
  EXPECT_EQ(e.hits[0].line_no, 2);  // the very first
  EXPECT_EQ(e.hits[1].progress_after, 2);
  EXPECT_EQ(e.hits[2].progress_after, 1);
  EXPECT_EQ(e.hits[3].progress_after, 0);
  EXPECT_EQ(e.hits[3].line_no, 9 * 51 + 2);  // the first after the last iteration line
}

TEST(RunEvidence, OneStatusALineTheFirstListedPatternWins) {
  const RunEvidence e =
      evidence_of("Traceback (most recent call last): CUDA out of memory\n" + iteration(1));
  ASSERT_EQ(e.hits.size(), 1u);
  EXPECT_EQ(e.hits[0].status, "oom");
}

TEST(RunEvidence, TheEndLineIsPositiveEvidence) {
  const RunEvidence e = evidence_of(iteration(1, 2) + iteration(2, 2) +
                                    "[after training is done] datetime: 2024-01-01 00:00:00\n\n\n");
  EXPECT_EQ(e.end_line, 3);
  EXPECT_EQ(e.last_line, "[after training is done] datetime: 2024-01-01 00:00:00");
  EXPECT_EQ(judge_run(e).status, "ok");
}

TEST(RunEvidence, AnUnterminatedLastLineIsTheLastLine) {
  const RunEvidence e = evidence_of(iteration(1) + "Segmentation fault (core dumped)");
  EXPECT_EQ(e.last_line, "Segmentation fault (core dumped)");
}

TEST(RunEvidence, ACounterRegexNeedsTwoCaptures) {
  CompletionSpec c;
  c.counter = {R"(iteration\s+(\d+)/)"};
  c.loc = {"case.yaml", 7, 3};
  try {
    Extractor ex({}, {}, {}, c);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("completion.counter"));
    EXPECT_THAT(e.what(), testing::HasSubstr("exactly 2 capture groups"));
  }
}

}  // namespace
}  // namespace aerun
