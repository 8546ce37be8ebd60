// The `composer` preset: MosaicML Composer's ConsoleLogger (composer/loggers/console_logger.py):
// a header "[batch=10/100]:" (or "[epoch=1][batch=10/100]:", "[token=N/T]:") then one line per
// metric, "\t Train loss/train/total: 2.3456" (floats with 4 decimals); before 2023 each metric on
// its own prefixed line, "[epoch=0][batch=16/625]: loss/train/total: 7.1292". llm-foundry prints
// the same. Throughput: speed_monitor.py (throughput/device/mfu is a fraction: x100 here).
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset composer_v1() {
  Preset p;
  p.name = "composer";
  p.version = 1;
  p.headline = {"loss", "tokens_per_s", "mfu"};
  p.summary = "MosaicML Composer / llm-foundry: console logger batches, loss, throughput, MFU";
  add_metrics(
      p, {
             {"batch", R"(\[batch=(\d+)/\d+\]:)", Reduction::Last, "", 1, {}, true},
             {"loss", R"(loss/train/total: )" + kNumber, Reduction::Last, ""},
             {"tokens_per_s", R"( throughput/tokens_per_sec: )" + kNumber, Reduction::Mean,
              "tokens/s"},
             {"samples_per_s", R"( throughput/samples_per_sec: )" + kNumber, Reduction::Mean,
              "samples/s"},
             {"tflops_per_gpu", R"(throughput/device/flops_per_sec: )" + kNumber, Reduction::Mean,
              "TFLOP/s", 1e-12},
             {"mfu", R"(throughput/device/mfu: )" + kNumber, Reduction::Mean, "%", 100},
             {"memory_peak_gb", R"(memory/peak_allocated_mem: )" + kNumber, Reduction::Max, "GB"},
         });
  // Composer prints no end line; without epochs the header counts batches of the whole run.
  p.completion.counter = {R"((?:^|: )\[batch=(\d+)/(\d+)\]:)"};
  // Resuming: "Autoresuming training from checkpoint" (composer/trainer/trainer.py).
  p.completion.restart = {R"(Autoresuming training from checkpoint)"};
  // Signatures: the config dump ("composer_version: 0.17.0"), its logger's module names.
  p.completion.signatures = {R"(composer_version: )", R"(composer\.trainer\.trainer)",
                             R"(\[batch=\d+/\d+\]:)"};
  return p;
}

}  // namespace aerun::detail
