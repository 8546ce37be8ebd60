// The shapes a real log takes beyond one plain line per event: progress bars redrawn with '\r',
// colour escapes around fields, several attempts of one run in one log, and a format no preset
// knows. Lines come from the fixtures (tests/fixtures/logs/README.md says where each is from).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "aerun/case/apply_presets.hpp"
#include "aerun/extract/extractor.hpp"

namespace {

using aerun::Extractor;
using aerun::MetricSpec;
using aerun::Reduction;

std::vector<std::string> fixture_lines(const std::string& name) {
  std::ifstream in(std::string(AERUN_FIXTURES) + "/logs/" + name);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string fixture_text(const std::string& name) {
  std::ifstream in(std::string(AERUN_FIXTURES) + "/logs/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

MetricSpec metric(const std::string& name, const std::string& pattern, Reduction r,
                  bool progress = false) {
  MetricSpec m;
  m.name = name;
  m.pattern = pattern;
  m.reduce = r;
  m.progress = progress;
  m.series = true;
  return m;
}

// A case with these metrics and no preset: the base vocabulary's status and restart lines.
aerun::CaseSpec base_case(std::vector<MetricSpec> metrics) {
  aerun::CaseSpec spec;
  spec.name = "t";
  spec.metrics = std::move(metrics);
  aerun::apply_presets(spec, {});
  return spec;
}

Extractor read(const aerun::CaseSpec& spec, const std::string& text) {
  Extractor ex(spec);
  ex.feed(text);
  ex.finish();
  return ex;
}

aerun::Verdict judge(const Extractor& ex, std::optional<int> exit_code) {
  aerun::RunEvidence e;
  ex.describe(e);
  e.exit_code = exit_code;
  return aerun::judge_run(e);
}

TEST(LogShapes, AProgressBarRedrawnWithCarriageReturnsIsOneLinePerFrame) {
  // tqdm redraws its bar in place: fp.write('\r' + bar) (tqdm/std.py, status_printer), so a log
  // file holds the frames of fixture lines 15 and 16 on one '\n' line. Lightning's end line
  // comes right after the first frame.
  const auto lines = fixture_lines("fixture_lightning_fit_max_steps.log");
  const std::string bar = "\r" + lines.at(14) + "\r" + lines.at(15) + "\n";
  const auto spec = base_case({metric("frames", R"(\| (\d+)/\d+ \[)", Reduction::Count, true)});
  aerun::CompletionSpec c;
  c.end = {R"(`Trainer\.fit` stopped: )"};
  Extractor ex(spec.metrics, spec.status, spec.startup, c);
  ex.feed("header\n" + bar + "Average time\n");
  ex.finish();
  EXPECT_EQ(ex.lines(), 5);  // header, an empty one before the first '\r', two frames, the last
  const auto series = ex.series().at(0).points;
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].source_line, 3);
  EXPECT_EQ(series[1].source_line, 4);
  aerun::RunEvidence e;
  ex.describe(e);
  EXPECT_EQ(e.end_line, 3);  // the end line glued to the first frame
}

TEST(LogShapes, CarriageReturnsAreLineEndsWhereverTheLogIsCut) {
  const auto lines = fixture_lines("fixture_lightning_fit_max_steps.log");
  const std::string text = "a\r\n\r" + lines.at(14) + "\r" + lines.at(15) + "\r\nb\r";
  const auto spec = base_case({metric("step", R"(\| (\d+)/\d+ \[)", Reduction::Last, true)});
  const Extractor whole = read(spec, text);
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    Extractor ex = whole.fresh();
    ex.feed(text.substr(0, cut));
    ex.feed(text.substr(cut));
    ex.finish();
    ASSERT_EQ(ex.lines(), whole.lines()) << cut;
    ASSERT_EQ(ex.metrics().at(0).source_line, whole.metrics().at(0).source_line) << cut;
  }
  EXPECT_EQ(whole.lines(), 5);  // "a", "", frame, frame, "b" ("\r\n" is one line end)
}

TEST(LogShapes, ColourEscapesAreRemovedBeforePatternsAndReasonsSeeALine) {
  // torchtitan colours its step line's fields (torchtitan/train.py: f"{color.red}step: {step:2}
  // {color.green}loss: ..."; tools/utils.py Color: "\033[31m", "\033[32m", reset "\033[39m",
  // orange "\033[38;2;180;60;0m"), written here around the fields of a real step line
  // (torchtitan run of 2025-05-28, research note presets_a.md).
  const std::string line =
      "[rank0]:[titan] 2025-05-28 21:13:37,816 - root - INFO - \x1b[31mstep:  1  \x1b[32mloss: "
      "-1.0000  \x1b[38;2;54;234;195mmemory: 36.90GiB(46.63%)  \x1b[34mtps: 4  \x1b[36mtflops: "
      "0.90  \x1b[35mmfu: 0.29%\x1b[39m";
  const auto spec =
      base_case({metric("loss", R"(step:\s+\d+\s+loss:\s+([-0-9.]+))", Reduction::Last, true)});
  const Extractor ex = read(spec, line + "\nTraceback (most recent call last):\n");
  ASSERT_EQ(ex.metrics().size(), 1u);
  EXPECT_EQ(ex.metrics()[0].value, -1.0);
  aerun::RunEvidence e;
  ex.describe(e);
  EXPECT_EQ(e.last_line, "Traceback (most recent call last):");
  const Extractor only = read(spec, line);
  aerun::RunEvidence e2;
  only.describe(e2);
  EXPECT_EQ(e2.last_line.find('\x1b'), std::string::npos) << e2.last_line;
  EXPECT_THAT(e2.last_line, testing::EndsWith("mfu: 0.29%"));
}

TEST(LogShapes, ARequeuedJobAppendingToItsLogIsJudgedByItsLastAttempt) {
  // Stanford Sherlock's requeue example: the job runs, is requeued (DUE TO JOB REQUEUE), and
  // runs again under the same id, appending to the same file.
  const auto spec =
      base_case({metric("executions", R"((normal) execution)", Reduction::Count, true)});
  const Extractor ex = read(spec, fixture_text("fixture_slurm_requeue_same_log.log"));
  const aerun::Verdict v = judge(ex, 0);
  EXPECT_EQ(v.status, "ok");
  EXPECT_EQ(v.reason, "1 earlier attempt: interrupted (line 7)");
}

TEST(LogShapes, TheTimeLimitDecidesWhatTheProgramSaysWhileItStops) {
  // A step cancelled by the time limit, then Lightning's SIGTERM handler (issue 20542).
  const Extractor ex =
      read(base_case({}), fixture_text("fixture_slurm_step_then_job_time_limit.log"));
  const aerun::Verdict v = judge(ex, std::nullopt);
  EXPECT_EQ(v.status, "timeout");
  EXPECT_THAT(v.reason, testing::StartsWith("line 1: slurmstepd: error: *** STEP 55595933.0"));
}

TEST(LogShapes, ATorchrunRestartStartsANewAttempt) {
  // torch 2.x: "[default] Worker group FAILED. 3/3 attempts left; will restart worker group"
  // after a failed worker (pytorch/pytorch#147064).
  const auto spec = base_case({});
  const Extractor ex = read(spec, fixture_text("fixture_torchrun_restart.log"));
  aerun::RunEvidence e;
  ex.describe(e);
  ASSERT_EQ(e.attempts.size(), 1u);
  EXPECT_EQ(e.attempts[0].line_no, 2);
  ASSERT_EQ(e.hits.size(), 1u);  // the failed worker, in the first attempt
  EXPECT_EQ(e.hits[0].status, "launcher_failed");
  EXPECT_EQ(e.hits[0].line_no, 1);
  // The log ends as the group rendezvous again: nothing stands in the last attempt.
  const aerun::Verdict v = aerun::judge_run(e);
  EXPECT_EQ(v.status, "incomplete");
  EXPECT_THAT(v.reason, testing::HasSubstr("1 earlier attempt: launcher_failed (line 1)"));
}

TEST(LogShapes, AnAttemptSplitAcrossIngestPartsIsTheSame) {
  const std::string text = fixture_text("fixture_slurm_requeue_same_log.log");
  const auto spec =
      base_case({metric("executions", R"((normal) execution)", Reduction::Count, true)});
  const Extractor whole = read(spec, text);
  aerun::RunEvidence want;
  whole.describe(want);
  for (size_t cut = text.find('\n') + 1; cut < text.size(); cut = text.find('\n', cut) + 1) {
    Extractor a = whole.fresh(), b = whole.fresh();
    b.follows_earlier_part();
    a.feed(text.substr(0, cut));
    b.feed(text.substr(cut));
    b.finish();
    a.append(std::move(b));
    aerun::RunEvidence got;
    a.describe(got);
    EXPECT_EQ(got.attempts, want.attempts) << cut;
    ASSERT_EQ(got.hits.size(), want.hits.size()) << cut;
    for (size_t i = 0; i < got.hits.size(); ++i) {
      EXPECT_EQ(got.hits[i].line_no, want.hits[i].line_no) << cut;
      EXPECT_EQ(got.hits[i].progress_after, want.hits[i].progress_after) << cut;
    }
    if (cut + 1 >= text.size()) break;
  }
}

TEST(LogShapes, ALogOfNoKnownFormatIsUnknownNotAStalledRun) {
  // A Lightning run read with the megatron preset: no Megatron banner, no iteration line. Up to
  // its first progress bar it has no progress shape at all: unknown, not stalled.
  aerun::CaseSpec spec;
  spec.name = "t";
  spec.presets = {"megatron"};
  aerun::apply_presets(spec, {});
  const std::string text = fixture_text("fixture_lightning_fit_max_steps.log");
  const std::string setup_only = text.substr(0, text.find("Epoch 0:"));
  const aerun::Verdict v = judge(read(spec, setup_only), std::nullopt);
  EXPECT_EQ(v.status, "unknown_format");
  EXPECT_THAT(v.reason, testing::HasSubstr("(megatron)"));
  // With its bar (`Epoch 0: ... 10/59674 [12:17<..., 0.01it/s]`), the generic reader beneath the
  // presets reads it: a run that progressed, neither unknown nor stalled.
  const aerun::Verdict whole = judge(read(spec, text), std::nullopt);
  EXPECT_EQ(whole.status, "incomplete");
  EXPECT_THAT(whole.reason, testing::HasSubstr("10 of 59674"));
  // A Megatron run that set up and logged no iteration still did not progress.
  const Extractor setup = read(spec, fixture_text("fixture_status_no_progress.log"));
  EXPECT_EQ(judge(setup, std::nullopt).status, "no_progress");
}

// A closing report after the progress ends a run no end line ends, but a crash after it is no
// teardown to forgive: tf-agents' TD3 example printed `total_time=1188.252` and then died
// restoring its checkpoint (tests/fixtures/logs/generic/tf-agents).
TEST(LogShapes, AClosingReportEndsTheRunUnlessACrashFollowsIt) {
  const aerun::CaseSpec spec = base_case({});
  EXPECT_EQ(
      judge(read(spec, fixture_text("generic/tf-agents/dqn-cartpole-10k-steps.log")), std::nullopt)
          .status,
      "ok");
  const aerun::Verdict crashed =
      judge(read(spec, fixture_text("generic/tf-agents/td3-reacher-checkpoint-restore-crash.log")),
            std::nullopt);
  EXPECT_EQ(crashed.status, "failed");
  EXPECT_THAT(crashed.reason, testing::HasSubstr("Traceback"));
}

}  // namespace
