// The `deepspeed` preset: DeepSpeed engine lines ([Rank 0] step=, timer throughput in its two
// eras, see_memory_usage, the forward/backward/step timer line).
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset deepspeed_v1() {
  Preset p;
  p.name = "deepspeed";
  p.version = 1;
  p.headline = {"ds_samples_per_s", "ds_max_mem_allocated_gb", "ds_step_ms"};
  p.summary = "DeepSpeed engine: steps, SamplesPerSec, memory usage, forward/backward/step times";
  const std::string& num = kNumber;
  add_metrics(
      p, {
             {"ds_step", R"(\[Rank 0\] step=(\d+), skipped=)", Reduction::Last, "", 1, {}, true},
             {"ds_skipped", R"(\[Rank 0\] step=\d+, skipped=(\d+))", Reduction::Last, ""},
             {"ds_samples_per_s",
              R"(\d, SamplesPerSec=)" + num,
              Reduction::Mean,
              "samples/s",
              1,
              {{R"(CurrSamplesPerSec=)" + num, 1}}},
             {"ds_running_avg_samples_per_s", R"(RunningAvgSamplesPerSec=)" + num, Reduction::Last,
              "samples/s"},
             {"ds_mem_allocated_gb", R"(, MemAllocated=)" + num + "GB", Reduction::Max, "GB"},
             {"ds_max_mem_allocated_gb", R"(MaxMemAllocated=)" + num + "GB", Reduction::Max, "GB"},
             {"ds_ma_gb", R"(see_memory_usage\] MA )" + num + " GB", Reduction::Max, "GB"},
             {"ds_max_ma_gb", R"(see_memory_usage\] MA [0-9.]+ GB\s+Max_MA )" + num + " GB",
              Reduction::Max, "GB"},
             {"ds_ca_gb",
              R"(see_memory_usage\] MA [0-9.]+ GB\s+Max_MA [0-9.]+ GB\s+CA )" + num + " GB",
              Reduction::Max, "GB"},
             {"ds_cpu_mem_used_gb", R"(CPU Virtual Memory:\s+used = )" + num + " GB",
              Reduction::Max, "GB"},
             // The engine's timer line: "time (ms) | forward: ... | backward: ... | step: ..."
             // before DeepSpeed 0.9, "time (ms) | fwd: ... | bwd: ... | step: ..." since
             // (deepspeed/runtime/engine.py, FORWARD_GLOBAL_TIMER = 'fwd'). One per step: it
             // shows progress even in a log without SamplesPerSec.
             {"ds_forward_ms",
              R"(time \(ms\) \| forward: )" + num,
              Reduction::Mean,
              "ms",
              1,
              {{R"(time \(ms\) \| fwd: )" + num, 1}},
              true},
             {"ds_backward_ms",
              R"(\| backward: )" + num,
              Reduction::Mean,
              "ms",
              1,
              {{R"(\| bwd: )" + num, 1}}},
             {"ds_step_ms", R"(\| step: )" + num, Reduction::Mean, "ms"},
             // The fp16 loss scale after an overflow: "[deepspeed] OVERFLOW! Rank 0 Skipping step.
             // Attempted loss scale: 64, reducing to 32" (runtime/fp16/loss_scaler.py,
             // DynamicLossScaler.update_scale): the new value, the one training goes on with.
             {"ds_loss_scale", R"(Attempted loss scale: [0-9.]+, reducing to )" + num,
              Reduction::Last, ""},
         });
  p.startup.first_step = R"(\[Rank 0\] step=\d+, skipped=)";  // the first step it logs
  // Resuming: "[Torch] Loading checkpoint from" (before June 2025) and "[Torch] Begin Load
  // checkpoint from" (deepspeed/runtime/checkpoint_engine/torch_checkpoint_engine.py).
  p.completion.restart = {R"(\[Torch\] (?:Loading|Begin Load) checkpoint from )"};
  // Signatures: DeepSpeed's logger, "[%(asctime)s] [%(levelname)s] [%(filename)s:%(lineno)d:
  // %(funcName)s] " (deepspeed/utils/logging.py), as in "[INFO] [logging.py:69:log_dist]",
  // "[INFO] [utils.py:822:see_memory_usage]", "[INFO] [runner.py:398:main]" (seed 002), and the
  // engine's "DeepSpeed info: version=".
  p.completion.signatures = {R"(\[(?:INFO|WARNING)\] \[[a-z_0-9]+\.py:\d+:[A-Za-z_0-9]+\] )",
                             R"(DeepSpeed info: version=)"};
  return p;
}

}  // namespace aerun::detail
