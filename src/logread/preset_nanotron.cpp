// The `nanotron` preset: nanotron's iteration line (src/nanotron/logging/base.py,
// LoggerWriter.add_scalars_from_list: "iteration: 2 / 300 | " then "tag: human_format(value)"
// joined by " | "), e.g.
//   iteration: 5 / 15 | consumed_tokens: 2.56K | elapsed_time_per_iteration_ms: 212 | ...
// Values have 3 significant digits and a K/M/G (B since April 2025) suffix (read by
// parse_number); elapsed_time_per_iteration_ms became time_per_iteration_ms in April 2025.
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset nanotron_v1() {
  Preset p;
  p.name = "nanotron";
  p.version = 1;
  p.headline = {"lm_loss", "iter_ms", "tokens_per_gpu_s"};
  p.summary = "nanotron: iteration lines with loss, time per iteration, tokens/s, TFLOPs";
  add_metrics(
      p,
      {
          {"iteration", R"(iteration: (\d+) / \d+)", Reduction::Last, "", 1, {}, true},
          {"train_iters", R"(iteration: \d+ / (\d+))", Reduction::Last, ""},
          {"iter_ms", R"(time_per_iteration_ms: )" + kHuman, Reduction::Mean, "ms"},
          {"tokens_per_s", R"(\| tokens_per_sec: )" + kHuman, Reduction::Mean, "tokens/s"},
          {"tokens_per_gpu_s", R"(\| tokens_per_sec_per_gpu: )" + kHuman, Reduction::Mean,
           "tokens/s/GPU"},
          {"lm_loss", R"(\| lm_loss: )" + kHuman, Reduction::Last, ""},
          {"grad_norm", R"(\| grad_norm: )" + kHuman, Reduction::Last, ""},
          {"tflops_per_gpu", R"(\| model_tflops_per_gpu: )" + kHuman, Reduction::Mean, "TFLOP/s"},
          {"hardware_tflops_per_gpu", R"(\| hardware_tflops_per_gpu: )" + kHuman, Reduction::Mean,
           "TFLOP/s"},
          {"consumed_tokens", R"(\| consumed_tokens: )" + kHuman, Reduction::Last, "tokens"},
      });
  // No end line: the counter at its planned count ("iteration: 15 / 15") is the end.
  p.completion.counter = {R"(iteration: (\d+) / (\d+))"};
  // Resuming: "Loading checkpoint from {path}" (src/nanotron/serialize/main.py).
  p.completion.restart = {R"(\]: Loading checkpoint from )"};
  // Signatures: the logger's "[INFO|DP=0|PP=0|TP=0]: " (before 2025-03) and the training banner
  // "[Start training] datetime: ..." / "start_iteration_step: 0" (trainer.py).
  p.completion.signatures = {R"(\[(?:INFO|WARNING)\|DP=\d+)", R"(\[Start training\] datetime: )",
                             R"(\| start_iteration_step: \d+)"};
  return p;
}

}  // namespace aerun::detail
