// The `torchtitan` preset: torchtitan's step line (torchtitan/components/metrics.py,
// MetricsProcessor.log; earlier train.py), in every shape since 2024:
//   step:  1  loss:  8.0277  grad_norm:  1.4604  memory:  1.21GiB(0.86%)  tps: 5,756  tflops: 0.41
//   mfu: 0.04%
// (2024: "wps:" for "tps:", no tflops; since 2025-06 grad_norm; since 2026-02 "loss:  3.24405").
// Each field is coloured ("\033[31mstep:" ...); escapes are removed before matching, and the
// patterns also read the "[31m" a pasted log keeps without its ESC byte.
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset torchtitan_v1() {
  Preset p;
  p.name = "torchtitan";
  p.version = 1;
  p.headline = {"loss", "tokens_per_gpu_s", "mfu"};
  p.summary = "torchtitan: step lines with loss, grad norm, memory, tokens/s, TFLOPs, MFU";
  // "- step:" (its logger's " - root - INFO - "), "] step:" (forks with another logger),
  // "[31mstep:" (a pasted colour code): never the "validate step:" of the validation line.
  const std::string step = R"((?:- |\] |\[[0-9;]*m)step:\s*)";
  add_metrics(
      p, {
             {"step", step + R"((\d+)\s+(?:\[[0-9;]*m)?loss:)", Reduction::Last, "", 1, {}, true},
             {"loss", step + R"(\d+\s+(?:\[[0-9;]*m)?loss:\s*)" + kNumber, Reduction::Last, ""},
             {"grad_norm", R"(\s(?:\[[0-9;]*m)?grad_norm:\s*)" + kNumber, Reduction::Last, ""},
             {"memory_gib", R"(\smemory:\s*)" + kNumber + "GiB", Reduction::Max, "GiB"},
             {"tokens_per_gpu_s",
              R"(\stps:\s*)" + kCount,
              Reduction::Mean,
              "tokens/s/GPU",
              1,
              {{R"(\swps:\s*)" + kCount, 1}}},
             {"tflops_per_gpu", R"(\stflops:\s*)" + kCount, Reduction::Mean, "TFLOP/s"},
             {"mfu", R"(\smfu:\s*)" + kNumber + "%", Reduction::Mean, "%"},
         });
  // torchtitan/train.py: "Training completed" once the loop ends (trainer.py, Trainer.train).
  p.completion.end = {R"(Training completed)"};
  // Resuming: "Loading the checkpoint from ./outputs/checkpoint/step-100." (HEAD), "Loading the
  // checkpoint at step 100." (to mid-2025) (components/checkpoint.py, CheckpointManager.load).
  p.completion.restart = {R"(Loading the checkpoint (?:from|at step) )"};
  // Signatures: "[rank0]:[titan] 2025-05-28 21:11:37,626 - root - INFO - ", "Training starts at
  // step 1", "Trainer is initialized with ..." (pytorch/torchtitan#1232).
  p.completion.signatures = {R"(\[titan\] \d{4}-\d\d-\d\d )", R"(Training starts at step \d+)",
                             R"(Trainer is initialized with )"};
  p.startup.first_step = step + R"(1\s+(?:\[[0-9;]*m)?loss:)";
  return p;
}

}  // namespace aerun::detail
