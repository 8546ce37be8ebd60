// The `maxtext` preset: MaxText's step line (src/MaxText/metric_logger.py: "completed step: 9,
// seconds: 1.341, TFLOP/s/device: 257.929, Tokens/s/device: 36653.244, total_weights: 196608,
// loss: 12.038", since 2026 with ", lm_loss: ..., perplexity: ..."; TFLOP/s and Tokens/s are
// left out during batch-size ramp-up; an absl prefix "I0811 21:54:55.531340 1383 metric_logger.py:
// 226] " since late 2025).
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset maxtext_v1() {
  Preset p;
  p.name = "maxtext";
  p.version = 1;
  p.headline = {"loss", "iter_ms", "tflops_per_device"};
  p.summary = "MaxText: completed-step lines with seconds, TFLOP/s and tokens/s per device, loss";
  add_metrics(
      p,
      {
          {"step", R"(completed step: (\d+), seconds: )", Reduction::Last, "", 1, {}, true},
          // The first steps include compilation: the median is the step time.
          {"iter_ms", R"(completed step: \d+, seconds: )" + kNumber, Reduction::Median, "ms", 1000},
          {"tflops_per_device", R"(, TFLOP/s/device: )" + kNumber, Reduction::Median, "TFLOP/s"},
          {"tokens_per_device_s", R"(, Tokens/s/device: )" + kNumber, Reduction::Median,
           "tokens/s"},
          {"loss", R"(completed step: \d+, .*, loss: )" + kNumber, Reduction::Last, ""},
          {"perplexity", R"(completed step: \d+, .*, perplexity: )" + kNumber, Reduction::Last, ""},
          {"memory_gb", R"(Using \(GB\) )" + kNumber + " / ", Reduction::Max, "GB"},
      });
  // MaxText prints no end line of its own; its trainers' "Train loop finished in:" where present.
  p.completion.end = {R"(Train loop finished in: )"};
  // Signatures: "Config param steps: 10" (pyconfig dumps every key), "System Information: Jax
  // Version:", "Num_devices:".
  p.completion.signatures = {R"(Config param [a-z_0-9]+: )", R"(System Information: Jax Version: )",
                             R"(completed step: \d+, seconds: )"};
  return p;
}

}  // namespace aerun::detail
