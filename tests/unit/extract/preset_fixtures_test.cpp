// Every preset on fixture logs made of real lines (tests/fixtures/logs/README.md says where each
// line comes from); expected values are worked out by hand from those lines.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/apply_presets.hpp"
#include "aerun/logread/presets.hpp"
#include "aerun/extract/extractor.hpp"

using aerun::Extractor;
using aerun::MetricValue;

namespace {

std::string fixture(const std::string& name) {
  return std::string(AERUN_FIXTURES) + "/logs/" + name;
}

// A preset's metrics, status (its own and the shared ones) and startup, as a case would get them.
aerun::CaseSpec with_presets(std::vector<std::string> presets) {
  aerun::CaseSpec spec;
  spec.name = "t";
  spec.presets = std::move(presets);
  aerun::apply_presets(spec, {});
  return spec;
}

Extractor extract(const std::string& file, const std::vector<std::string>& presets) {
  const auto spec = with_presets(presets);
  return aerun::extract_file(fixture(file), spec.metrics, spec.status, spec.startup);
}

std::optional<MetricValue> get(const Extractor& ex, const std::string& name) {
  for (const auto& m : ex.metrics())
    if (m.name == name) return m;
  return std::nullopt;
}

}  // namespace

TEST(MegatronPreset, ReadsEveryWordingOfTheIterationLine) {
  const auto ex = extract("fixture_megatron_iterations.log", {"megatron"});
  // Lines 1,3,4 (ms), 5 ("(s): 6.0518" = 6051.8 ms), 6, 7 (ms), 8 (key=value, ms):
  // (25268.9 + 16444.1 + 22467.5 + 6051.8 + 6017.3 + 6000.0 + 5900.0) / 7 = 88149.6 / 7
  const auto iter = get(ex, "iter_ms");
  ASSERT_TRUE(iter);
  EXPECT_EQ(iter->count, 7);
  EXPECT_NEAR(iter->value, 12592.8, 1e-9);
  EXPECT_EQ(iter->unit, "ms");
  EXPECT_EQ(iter->source_line, 8);
  EXPECT_EQ(get(ex, "iteration")->value, 90);  // "iteration=      90/     100" (line 8)
  EXPECT_EQ(get(ex, "train_iters")->value, 100);
  // TFLOP/s/GPU (9.3, line 6), "TFLOPs: 9.16" (line 7), "TFLOPs=9.31" (line 8): 27.77 / 3
  EXPECT_NEAR(get(ex, "tflops_per_gpu")->value, 27.77 / 3, 1e-12);
  EXPECT_NEAR(get(ex, "samples_per_s")->value, (0.667 + 0.678) / 2, 1e-12);
  EXPECT_NEAR(get(ex, "tokens_per_gpu_s")->value, (682.667 + 694.237) / 2, 1e-9);
}

TEST(MegatronPreset, ReadsTheSaveCheckpointTimerInEveryWording) {
  const auto ex = extract("fixture_megatron_save_checkpoint.log", {"megatron"});
  // Line 4 "time (ms) | save-checkpoint: 19495.31", line 6 "(19401.22, 19652.80)" (the max),
  // line 8 "11525.99": (19495.31 + 19652.80 + 11525.99) / 3 = 50674.10 / 3
  const auto save = get(ex, "save_checkpoint_ms");
  ASSERT_TRUE(save);
  EXPECT_EQ(save->count, 3);
  EXPECT_NEAR(save->value, 50674.10 / 3, 1e-9);
  EXPECT_EQ(save->unit, "ms");
  EXPECT_EQ(save->source_line, 8);
  EXPECT_NEAR(get(ex, "iter_ms")->value, 2953.1, 1e-9);  // the iteration line is still read
}

TEST(MegatronPreset, FieldsAreOptionalOnSkippedIterations) {
  const auto ex = extract("fixture_megatron_iterations.log", {"megatron"});
  const auto loss = get(ex, "lm_loss");  // line 5 (a skipped iteration) has none
  EXPECT_EQ(loss->count, 6);
  EXPECT_DOUBLE_EQ(loss->value, 9.9);
  EXPECT_EQ(get(ex, "grad_norm")->count, 4);  // lines 1, 6, 7, 8
  EXPECT_DOUBLE_EQ(get(ex, "grad_norm")->value, 2.5);
  EXPECT_EQ(get(ex, "loss_scale")->count, 6);     // lines 1, 4, 5, 6, 7, 8
  EXPECT_EQ(get(ex, "skipped_iters")->value, 1);  // line 5
  EXPECT_EQ(get(ex, "nan_iters")->value, 1);      // line 6
  EXPECT_EQ(ex.status(), std::nullopt);
  EXPECT_TRUE(ex.progress_seen());
}

TEST(DeepSpeedPreset, ReadsStepsTimersAndMemoryInBothEras) {
  const auto ex = extract("fixture_deepspeed_engine.log", {"deepspeed"});
  EXPECT_EQ(get(ex, "ds_step")->value, 50);
  EXPECT_EQ(get(ex, "ds_skipped")->value, 0);
  // "0/50, SamplesPerSec=0.25199842464335126" and "CurrSamplesPerSec=0.2480"
  EXPECT_NEAR(get(ex, "ds_samples_per_s")->value, (0.25199842464335126 + 0.2480) / 2, 1e-15);
  EXPECT_DOUBLE_EQ(get(ex, "ds_running_avg_samples_per_s")->value, 0.2601);
  EXPECT_DOUBLE_EQ(get(ex, "ds_mem_allocated_gb")->value, 9.39);
  EXPECT_DOUBLE_EQ(get(ex, "ds_max_mem_allocated_gb")->value, 10.12);
  EXPECT_DOUBLE_EQ(get(ex, "ds_ma_gb")->value, 9.39);  // max of "MA 0.0 GB" and "MA 9.39 GB"
  EXPECT_EQ(get(ex, "ds_ma_gb")->source_line, 5);
  EXPECT_DOUBLE_EQ(get(ex, "ds_max_ma_gb")->value, 0.0);
  EXPECT_DOUBLE_EQ(get(ex, "ds_ca_gb")->value, 0.0);
  EXPECT_DOUBLE_EQ(get(ex, "ds_cpu_mem_used_gb")->value, 3.08);
  // forward/backward/step lines 6 and 9 (the *_microstep line 11 is not one of them)
  EXPECT_NEAR(get(ex, "ds_forward_ms")->value, (1763.31 + 1754.53) / 2, 1e-9);
  EXPECT_NEAR(get(ex, "ds_backward_ms")->value, (6377.99 + 6372.73) / 2, 1e-9);
  EXPECT_NEAR(get(ex, "ds_step_ms")->value, (7722.10 + 7738.42) / 2, 1e-9);
  EXPECT_EQ(get(ex, "ds_step_ms")->count, 2);
}

TEST(StrongholdPreset, ReadsThroughputAndTheOffloadingBreakdown) {
  const auto ex = extract("fixture_stronghold_offload.log", {"megatron", "stronghold"});
  EXPECT_NEAR(get(ex, "effective_tflops_per_gpu")->value, (9.29 + 8.22) / 2, 1e-12);
  EXPECT_DOUBLE_EQ(get(ex, "total_params_b")->value, 2.522);
  // IterationTime is in seconds: (6.051781535148621 + 10.053036069869995) / 2 * 1000 ms
  EXPECT_NEAR(get(ex, "sh_iter_ms")->value, 8052.408802509308, 1e-6);
  EXPECT_NEAR(get(ex, "sh_samples_per_s")->value, (0.6609623921101718 + 0.3978897491463718) / 2,
              1e-15);
  EXPECT_EQ(get(ex, "sh_samples_per_step")->value, 4);
  EXPECT_NEAR(get(ex, "sh_e2e_ms")->value, (6051.73 + 10053.03) / 2, 1e-9);
  EXPECT_NEAR(get(ex, "sh_offload_fwd_ms")->value, (751.53 + 1198.38) / 2, 1e-9);
  EXPECT_NEAR(get(ex, "sh_offload_bwd_2cpu_ms")->value, (60.09 + 0.74) / 2, 1e-9);
  EXPECT_NEAR(get(ex, "iter_ms")->value, (6051.8 + 10053.0) / 2, 1e-9);
}

TEST(EzpzPreset, ReadsTestDistIterLines) {
  const auto ex = extract("fixture_ezpz_test_dist.log", {"ezpz"});
  EXPECT_EQ(get(ex, "iter")->value, 5);
  EXPECT_DOUBLE_EQ(get(ex, "loss")->value, 875.796);
  EXPECT_NEAR(get(ex, "sps")->value, (1.697e4 + 3.611e4 + 3.59e4 + 3.704e4 + 3.825e4) / 5, 1e-9);
  // dt is seconds in the log, ms in the metric
  EXPECT_NEAR(get(ex, "dt_ms")->value,
              (0.00377066 + 0.00177221 + 0.00178271 + 0.0017279 + 0.00167313) / 5 * 1000, 1e-12);
  EXPECT_TRUE(ex.progress_seen());
}

TEST(EzpzPreset, ReadsTrainerStepLines) {
  const auto ex = extract("fixture_ezpz_trainer.log", {"ezpz"});
  EXPECT_EQ(get(ex, "step")->value, 100);
  EXPECT_EQ(get(ex, "step")->count, 10);
  EXPECT_DOUBLE_EQ(get(ex, "loss")->value, 2.445556);
  EXPECT_NEAR(get(ex, "mfu")->value,
              (46.288281 + 45.934162 + 45.966490 + 45.963461 + 45.984530 + 45.985675 + 45.998106 +
               45.983282 + 45.737774 + 45.743655) /
                  10,
              1e-9);
  EXPECT_EQ(get(ex, "tps")->count, 10);
  EXPECT_EQ(get(ex, "sps")->count, 10);  // "sps=" only, never "sps_per_gpu="
}

TEST(HfTrainerPreset, ReadsLossDictsAndTheSummary) {
  const auto ex = extract("fixture_hf-trainer_dicts.log", {"hf-trainer"});
  EXPECT_DOUBLE_EQ(get(ex, "hf_loss")->value, 1.9876);
  EXPECT_EQ(get(ex, "hf_loss")->count, 2);
  EXPECT_DOUBLE_EQ(get(ex, "hf_grad_norm")->value, 0.987);
  EXPECT_DOUBLE_EQ(get(ex, "hf_learning_rate")->value, 4.6e-05);
  EXPECT_DOUBLE_EQ(get(ex, "hf_epoch")->value, 0.2);
  EXPECT_DOUBLE_EQ(get(ex, "train_runtime_s")->value, 123.4567);
  EXPECT_DOUBLE_EQ(get(ex, "train_samples_per_s")->value, 25.93);
  EXPECT_EQ(get(ex, "train_samples_per_s")->count, 2);  // the dict and the summary table
  EXPECT_DOUBLE_EQ(get(ex, "train_steps_per_s")->value, 3.241);
  EXPECT_DOUBLE_EQ(get(ex, "train_loss")->value, 2.1666);
}

TEST(StartupPreset, MeasuresFromTheJobStartLineToTheFirstStep) {
  const auto ex = extract("fixture_startup_job_started.log", {"startup"});
  // Job started at: 2023-11-02-184407 -> [2023-11-02 18:44:32,804] step=0: 25.804 s
  const auto s = get(ex, "log_startup_s");
  ASSERT_TRUE(s);
  EXPECT_NEAR(s->value, 25.804, 1e-6);
  EXPECT_EQ(s->source_line, 3);
  EXPECT_EQ(ex.startup_line(), 3);
}
