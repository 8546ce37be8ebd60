// Every new preset on real logs of its framework (tests/fixtures/logs/presets/README.md says where
// each is from): the status an ingest gives it, and values that the log's own line shows — each
// expected value's text is checked to be on that line of the file before the value is compared.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "../line_values.hpp"
#include "aerun/case/apply_presets.hpp"
#include "aerun/extract/extractor.hpp"

namespace {

using aerun::testing::LineValue;

struct RealLog {
  const char* file;  // under tests/fixtures/logs/presets
  const char* preset;
  const char* status;  // as `aerun ingest` stores it (the exit code unknown)
  std::vector<LineValue> values;
  const char* also =
      "";  // another framework whose lines the log holds too (a Trainer on DeepSpeed)
};

std::vector<RealLog> logs() {
  return {
      {"deepspeed/deepspeed-overflow-issue534.log",
       "deepspeed",
       "no_progress",  // only the Trainer's lines show its steps
       {{"ds_loss_scale", 7, R"(Attempted loss scale: 4, reducing to 2)", 2.0}},
       "hf-trainer"},
      {"torchtitan/torchtitan-issue1232.log",
       "torchtitan",
       "incomplete",
       {{"step", 15, R"(step:  4)", 4.0},
        {"loss", 15, R"(loss: -1.0000)", -1.0},
        {"memory_gib", 13, R"(42.78GiB)", 42.78}}},
      {"torchtitan/torchtitan-pr3393.log",
       "torchtitan",
       "incomplete",
       {{"step", 8, R"(step: 21)", 21.0},
        {"loss", 8, R"(loss:  3.00867)", 3.00867},
        {"grad_norm", 8, R"(grad_norm:  0.6348)", 0.6348}}},
      {"torchtitan/torchtitan-pr1287.log",
       "torchtitan",
       "incomplete",
       {{"step", 10, R"(step: 250)", 250.0}, {"loss", 10, R"(loss:  5.8383)", 5.8383}}},
      {"torchtitan/torchtitan-complete-run.log",
       "torchtitan",
       "ok",
       {{"step", 34, R"(step: 10)", 10.0},
        {"loss", 34, R"(loss:  3.9761)", 3.9761},
        {"grad_norm", 34, R"(grad_norm:  1.9366)", 1.9366}}},
      {"nanotron/nanotron-1.log",
       "nanotron",
       "ok",
       {{"iteration", 51, R"(iteration: 15 / 15)", 15.0},
        {"lm_loss", 51, R"(lm_loss: 5.22)", 5.22}}},
      {"nanotron/nanotron-2.log",
       "nanotron",
       "incomplete",
       {{"iteration", 50, R"(iteration: 11 / 120000)", 11.0},
        {"lm_loss", 50, R"(lm_loss: 14.4)", 14.4},
        {"consumed_tokens", 50, R"(consumed_tokens: 180K)", 180000.0}}},
      {"nanotron/nanotron-3.log",
       "nanotron",
       "incomplete",
       {{"consumed_tokens", 4, R"(consumed_tokens: 85.8G)", 85800000000.0},
        {"lm_loss", 4, R"(lm_loss: 2.36)", 2.36}}},
      {"nanotron/nanotron-5.log",
       "nanotron",
       "incomplete",
       {{"consumed_tokens", 3, R"(consumed_tokens: 480B)", 480000000000.0},
        {"lm_loss", 3, R"(lm_loss: 2.06)", 2.06}}},
      {"nanogpt/nanogpt-2.log",
       "nanogpt",
       "incomplete",
       {{"step", 25, R"(iter 240)", 240.0},
        {"loss", 25, R"(loss 1.6524)", 1.6524},
        {"val_loss", 26, R"(val loss 1.7220)", 1.722}}},
      {"nanogpt/nanogpt-issue215-nan.log",
       "nanogpt",
       "diverged",
       {{"loss", 21, R"(loss 4.2490)", 4.249}}},
      {"nanogpt/nanogpt-4.log",
       "nanogpt",
       "incomplete",
       {{"step", 13, R"(iter 1641)", 1641.0}, {"loss", 13, R"(loss 3.9748)", 3.9748}}},
      {"nanogpt/llmc-2.log",
       "nanogpt",
       "incomplete",
       {{"step", 12, R"(step   71/74)", 71.0}, {"loss", 12, R"(loss 3.597191)", 3.597191}}},
      {"nanogpt/llmc-3.log",
       "nanogpt",
       "ok",
       {{"step", 4, R"(step 19560/19560)", 19560.0},
        {"loss", 4, R"(loss 3.252871)", 3.252871},
        {"mfu", 4, R"(30.9% bf16 MFU)", 30.9}}},
      {"lightning/lightning-tensor-parallel-readme.log",
       "lightning",
       "ok",
       {{"batch", 22, R"(10/10 [)", 10.0}}},
      {"lightning/lightning-3.log", "lightning", "ok", {{"batch", 25, R"(10000it [)", 10000.0}}},
      {"lightning/lightning-rich-bar.log",
       "lightning",
       "incomplete",
       {{"batch", 13, R"(5072/--)", 5072.0}, {"loss", 13, R"(train_loss: 10.416)", 10.416}}},
      {"lightning/litgpt-1.log",
       "lightning",
       "ok",
       {{"iter", 27, R"(iter 10 )", 10.0},
        {"loss", 27, R"(loss train: 1.524)", 1.524},
        {"training_time_s", 28, R"(Training time: 11.20s)", 11.2},
        {"memory_gb", 29, R"(Memory used: 13.90 GB)", 13.9}}},
      {"lightning/litgpt-2.log",
       "lightning",
       "incomplete",
       {{"iter", 7, R"(iter 3051000)", 3051000.0},
        {"loss", 7, R"(loss train: 2.857)", 2.857},
        {"val_loss", 7, R"(val: 2.861)", 2.861}}},
      {"lightning/litgpt-5.log",
       "lightning",
       "incomplete",
       {{"iter", 21, R"(iter 21 )", 21.0}, {"loss", 21, R"(loss 2.8014)", 2.8014}}},
      {"nemo/nemo2-resiliency-run.log",
       "nemo",
       "ok",
       {{"global_step", 46, R"(global_step: 19)", 19.0},
        {"reduced_train_loss", 46, R"(reduced_train_loss: 11.03)", 11.03}}},
      {"nemo/nemo2-skypilot-awsome.log",
       "nemo",
       "incomplete",
       {{"global_step", 12, R"(global_step: 48)", 48.0},
        {"reduced_train_loss", 12, R"(reduced_train_loss: 11.02)", 11.02}}},
      {"nemo/nemo2-bionemo-geneformer.log",
       "nemo",
       "ok",
       {{"global_step", 10, R"(global_step: 499)", 499.0},
        {"reduced_train_loss", 10, R"(reduced_train_loss: 8.211)", 8.211}}},
      {"nemo/nemo2-diffusion-readme.log",
       "nemo",
       "incomplete",
       {{"global_step", 18, R"(global_step: 15)", 15.0},
        {"consumed_samples", 18, R"(consumed_samples: 128)", 128.0}}},
      {"nemo/nemo2-resiliency-resumed.log",
       "nemo",
       "ok",
       {{"global_step", 15, R"(global_step: 19)", 19.0}}},
      {"megatron/megatron-core-4.log",
       "megatron",
       "incomplete",
       {{"iteration", 22, R"(iteration      200/   40000)", 200.0},
        {"lm_loss", 22, R"(lm loss: 6.760830E+00)", 6.76083}}},
      {"megatron/megatron-bridge-6.log",
       "megatron",
       "ok",
       {{"iteration", 1, R"(iteration        1/       1)", 1.0},
        {"lm_loss", 1, R"(lm loss: 1.258695E+01)", 12.58695}}},
      {"megatron/megatron-lm-2024-8.log",
       "megatron",
       "incomplete",
       {{"iteration", 3, R"(iteration       45/     100)", 45.0},
        {"lm_loss", 3, R"(lm loss: 1.834162E+00)", 1.834162}}},
      {"maxtext/maxtext-logs-guide.log",
       "maxtext",
       "incomplete",
       {{"step", 10, R"(completed step: 9,)", 9.0}, {"loss", 10, R"(loss: 10.374)", 10.374}}},
      {"maxtext/maxtext-getting-started.log",
       "maxtext",
       "incomplete",
       {{"step", 9, R"(completed step: 4,)", 4.0}, {"loss", 9, R"(loss: 9.610)", 9.61}}},
      {"maxtext/maxtext-dpo-notebook.log",
       "maxtext",
       "ok",
       {{"step", 17, R"(completed step: 500,)", 500.0},
        {"perplexity", 17, R"(perplexity: 1.599)", 1.599}}},
      {"maxtext/maxtext-pr4847.log",
       "maxtext",
       "incomplete",
       {{"step", 4, R"(completed step: 3,)", 3.0}, {"loss", 4, R"(loss: 12.979)", 12.979}}},
      {"composer/composer-1.log",
       "composer",
       "incomplete",
       {{"batch", 13, R"([batch=4/100]:)", 4.0},
        {"loss", 16, R"(loss/train/total: 10.6459)", 10.6459}}},
      {"composer/composer-2.log",
       "composer",
       "incomplete",
       {{"batch", 30, R"(batch=17/625)", 17.0},
        {"loss", 29, R"(loss/train/total: 7.1243)", 7.1243}}},
      {"composer/composer-5.log",
       "composer",
       "ok",
       {{"batch", 3, R"([batch=20/20]:)", 20.0},
        {"loss", 20, R"(loss/train/total: 0.0051)", 0.0051},
        {"memory_peak_gb", 14, R"(peak_allocated_mem: 3.826)", 3.826}}},
      {"composer/composer-pr1884.log",
       "composer",
       "incomplete",
       {{"loss", 13, R"(loss/train/total: 12.0570)", 12.057},
        {"mfu", 24, R"(mfu: 0.2489)", 24.89}}},
      {"torchtune/torchtune-2.log",
       "torchtune",
       "incomplete",
       {{"step", 10, R"(1|52|Loss)", 52.0},
        {"loss", 10, R"(Loss: 2.3697006702423096)", 2.3697006702423096}}},
      {"torchtune/torchtune-3.log",
       "torchtune",
       "incomplete",
       {{"step", 15, R"(Step 12 )", 12.0},
        {"loss", 15, R"(loss:1.1174635887145996)", 1.1174635887145996}}},
      {"torchtune/torchtune-4.log",
       "torchtune",
       "incomplete",
       {{"step", 18, R"(Step 17 )", 17.0},
        {"loss", 18, R"(loss:0.970949828624725)", 0.970949828624725}}},
      {"torchtune/torchtune-5.log",
       "torchtune",
       "incomplete",
       {{"step", 5, R"(1|2|Loss)", 2.0},
        {"loss", 5, R"(Loss: 1.2548030614852905)", 1.2548030614852905}}},
      {"mlperf/mlperf-1.log",
       "mlperf",
       "ok",
       {{"eval_accuracy", 56, R"(0.9222431778907776)", 0.9222431778907776},
        {"samples_count", 58, R"("samples_count": 3456)", 3456.0}}},
      {"mlperf/mlperf-ssd-2.log", "mlperf", "ok", {{"epoch", 21, R"("epoch_num": 4)", 4.0}}},
      {"mlperf/mlperf-dlrm-aborted.log",
       "mlperf",
       "failed",
       {{"eval_accuracy", 12, R"(0.8025879859924316)", 0.8025879859924316}}},
      {"mlperf/mlperf-v06-resnet.log",
       "mlperf",
       "ok",
       {{"epoch", 16, R"("first_epoch_num": 64)", 64.0},
        {"eval_accuracy", 17, R"(0.7613599896430969)", 0.7613599896430969}}},
      {"hf-trainer/transformers5-1.log",
       "hf-trainer",
       "ok",
       {{"hf_loss", 8, R"('loss': '1.145')", 1.145},
        {"train_runtime_s", 10, R"('train_runtime': '2279')", 2279.0},
        {"mean_token_accuracy", 8, R"('mean_token_accuracy': '0.7406')", 0.7406}}},
      {"hf-trainer/transformers5-2.log",
       "hf-trainer",
       "ok",
       {{"hf_loss", 20, R"('loss': '0.09489')", 0.09489},
        {"train_runtime_s", 24, R"('train_runtime': '7718')", 7718.0}}},
      {"hf-trainer/transformers5-3.log",
       "hf-trainer",
       "ok",
       {{"hf_epoch", 25, R"('142.9')", 142.9},
        {"train_loss", 25, R"('train_loss': '0.1762')", 0.1762}}},
      {"hf-trainer/trl-dpo-ipex-llm.log",
       "hf-trainer",
       "incomplete",
       {{"rewards_accuracy", 8, R"('rewards/accuracies': 0.6875)", 0.6875}}},
      {"hf-trainer/trl-sft-issue3926.log",
       "hf-trainer",
       "incomplete",
       {{"num_tokens", 3, R"('num_tokens': 11421.0)", 11421.0}}},
      {"hf-trainer/trl-sft-ray-v5.log",
       "hf-trainer",
       "ok",
       {{"mean_token_accuracy", 4, R"('mean_token_accuracy': '0.5209')", 0.5209},
        {"train_loss", 5, R"('train_loss': '2.843')", 2.843}}},
      {"hf-trainer/transformers4-llamafactory.log",
       "hf-trainer",
       "ok",
       {{"train_runtime_s", 8, R"('train_runtime': 246.2454)", 246.2454}}},
  };
}

// The log read as a case with this one preset reads it.
aerun::Extractor read_with(const std::string& path, const std::string& preset) {
  aerun::CaseSpec spec;
  spec.name = "t";
  spec.presets = {preset};
  aerun::apply_presets(spec, {});
  return aerun::extract_file(path, spec.metrics, spec.status, spec.startup, spec.completion);
}

TEST(PresetRealLogs, EachIsJudgedAndReadAsItsLinesSay) {
  for (const RealLog& log : logs()) {
    SCOPED_TRACE(log.file);
    const std::string path = std::string(AERUN_FIXTURES) + "/logs/presets/" + log.file;
    const aerun::Extractor ex = read_with(path, log.preset);
    aerun::RunEvidence e;
    ex.describe(e);
    EXPECT_EQ(aerun::judge_run(e).status, log.status) << aerun::judge_run(e).reason;
    aerun::testing::expect_line_values(path, ex, log.values);
  }
}

// A preset never reads another framework's log as its own progress: each fixture, read with
// every other new preset, gives no progress line (the families' formats do not collide).
TEST(PresetRealLogs, NoPresetTakesAnotherFrameworksLinesAsProgress) {
  const std::vector<std::string> presets = {
      "torchtitan", "nanotron", "nanogpt",    "lightning", "nemo",      "maxtext", "composer",
      "torchtune",  "mlperf",   "hf-trainer", "megatron",  "deepspeed", "ezpz"};
  for (const RealLog& log : logs()) {
    const std::string path = std::string(AERUN_FIXTURES) + "/logs/presets/" + log.file;
    for (const std::string& other : presets) {
      if (other == log.preset || other == log.also) continue;
      EXPECT_EQ(read_with(path, other).progress_lines(), 0) << log.file << " read with " << other;
    }
  }
}

}  // namespace
