// The `ezpz` preset: ezpz's test_dist lines (iter=N, loss=..., sps=..., dt=...) and its trainer
// lines (step=N loss=... dt=... sps=... tps=... mfu=...).
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset ezpz_v1() {
  Preset p;
  p.name = "ezpz";
  p.version = 1;
  p.headline = {"loss", "dt_ms", "sps", "mfu"};
  p.summary = "ezpz: iter/step lines with loss, samples/s, dt, tokens/s, MFU";
  const std::string& num = kNumber;
  add_metrics(p, {
                     // 2024: "[test_dist:274] - iter=1, loss=2152.41, sps=..., dt=..."; 2025:
                     // "[ezpz/test_dist:325:train_step] iter=10 loss=1.188046 accuracy=...
                     // dtf=0.008557 dtb=0.001808 loss/mean=..." (ezpz docs/cli/test.md).
                     {"iter",
                      R"( - iter=(\d+), loss=)",
                      Reduction::Last,
                      "",
                      1,
                      {{R"(\] iter=(\d+) loss=)", 1}},
                      true},
                     {"step", R"( - step=(\d+) loss=)", Reduction::Last, "", 1, {}, true},
                     {"loss",
                      R"(, loss=)" + num + ",",
                      Reduction::Last,
                      "",
                      1,
                      {{R"(\d loss=)" + num + " ", 1}}},
                     {"sps", R"( sps=)" + num, Reduction::Mean, "samples/s"},
                     {"dt_ms", R"( dt=)" + num, Reduction::Mean, "ms", 1000},
                     {"dtf_ms", R"( dtf=)" + num, Reduction::Mean, "ms", 1000},
                     {"dtb_ms", R"( dtb=)" + num, Reduction::Mean, "ms", 1000},
                     {"accuracy", R"( accuracy=)" + num, Reduction::Last, ""},
                     {"tps", R"( tps=)" + num, Reduction::Mean, "tokens/s"},
                     {"mfu", R"( mfu=)" + num, Reduction::Mean, "%"},
                 });
  // ezpz's History.finalize() saves the run's plots once training is over ("[ezpz/history:2385:
  // finalize] Saving plots to ..."): the end of a finished run.
  p.completion.end = {R"(history:\d+:finalize\] Saving plots to )"};
  // Signatures: ezpz's log format "[2024-07-17 07:42:21.451865][INFO][trainer:820] - " and the
  // 2025 "[ezpz/test_dist:325:train_step]" (seed 003, ezpz docs/cli/test.md).
  p.completion.signatures = {R"(\]\[INFO\]\[[A-Za-z_0-9./]+:\d+\] - )", R"(\[ezpz/[a-z_]+:\d+)"};
  return p;
}

}  // namespace aerun::detail
