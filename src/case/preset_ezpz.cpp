// The `ezpz` preset: ezpz's test_dist lines (iter=N, loss=..., sps=..., dt=...) and its trainer
// lines (step=N loss=... dt=... sps=... tps=... mfu=...).
#include "case/preset_families.hpp"

namespace aerun::detail {

Preset ezpz_v1() {
  Preset p;
  p.name = "ezpz";
  p.version = 1;
  p.summary = "ezpz: iter/step lines with loss, samples/s, dt, tokens/s, MFU";
  const std::string& num = kNumber;
  add_metrics(p, {
                     {"iter", R"( - iter=(\d+), loss=)", Reduction::Last, "", 1, {}, true},
                     {"step", R"( - step=(\d+) loss=)", Reduction::Last, "", 1, {}, true},
                     {"loss",
                      R"(, loss=)" + num + ",",
                      Reduction::Last,
                      "",
                      1,
                      {{R"(\d loss=)" + num + " ", 1}}},
                     {"sps", R"( sps=)" + num, Reduction::Mean, "samples/s"},
                     {"dt_ms", R"( dt=)" + num, Reduction::Mean, "ms", 1000},
                     {"tps", R"( tps=)" + num, Reduction::Mean, "tokens/s"},
                     {"mfu", R"( mfu=)" + num, Reduction::Mean, "%"},
                 });
  return p;
}

}  // namespace aerun::detail
