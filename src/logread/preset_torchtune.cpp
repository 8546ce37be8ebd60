// The `torchtune` preset: torchtune's recipes' tqdm bar "1|52|Loss: 2.3697006702423096:   0%|▏
// | 52/25880 [00:24<3:55:01,  1.83it/s]" (epoch|global step|Loss, redrawn with '\r') and its
// metric logger's "Step 1 | loss:2.085338592529297 lr:2e-05 tokens_per_second_per_gpu:57.82"
// (torchtune/training/metric_logging.py, DiskLogger/StdoutLogger).
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset torchtune_v1() {
  Preset p;
  p.name = "torchtune";
  p.version = 1;
  p.headline = {"loss", "tokens_per_gpu_s"};
  p.summary = "torchtune: recipe progress bars and metric logger steps with loss and tokens/s";
  add_metrics(
      p, {
             {"step",
              R"(\d+\|(\d+)\|Loss: )",
              Reduction::Last,
              "",
              1,
              {{R"(Step (\d+) \| loss:)", 1}},
              true},
             {"loss",
              R"(\d+\|\d+\|Loss: )" + kNumber,
              Reduction::Last,
              "",
              1,
              {{R"(Step \d+ \| loss:)" + kNumber, 1}}},
             {"tokens_per_gpu_s", R"( tokens_per_second_per_gpu:)" + kNumber, Reduction::Mean,
              "tokens/s/GPU"},
             {"peak_memory_active_gb", R"( peak_memory_active:)" + kNumber, Reduction::Max, "GB"},
         });
  // torchtune prints no end line (its last checkpoint's lines are also printed every epoch):
  // an ingested log is `incomplete` without --assume-complete.
  // Signatures: "Running LoRAFinetuneRecipeSingleDevice with resolved config:", its logger
  // "torchtune.utils._logging" (earlier "torchtune.utils.logging").
  p.completion.signatures = {R"(Running \w+Recipe\w* with resolved config)",
                             R"(torchtune\.utils\._?logging)"};
  return p;
}

}  // namespace aerun::detail
