// The `nemo` preset: NeMo 2's training line (nemo/lightning/pytorch/callbacks/progress_printer.py:
// "Training epoch 0, iteration 10/99 | lr: 1.499e-05 | global_batch_size: 32 | global_step: 10 |
// reduced_train_loss: 9.934 | train_step_timing in s: 1.234 | consumed_samples: 352") and NeMo
// 1's bar postfix ("reduced_train_loss=0.0252, global_step=6023.0"). NeMo's Megatron-Core runs
// that print Megatron-LM's iteration lines read them with the `megatron` preset beside this one.
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset nemo_v1() {
  Preset p;
  p.name = "nemo";
  p.version = 1;
  p.headline = {"reduced_train_loss", "iter_ms"};
  p.summary = "NeMo 2 (and NeMo 1 bars): global step, reduced train loss, step timing";
  add_metrics(
      p, {
             {"global_step",
              R"(\| global_step: )" + kNumber,
              Reduction::Last,
              "",
              1,
              {{R"([, ]global_step=)" + kNumber, 1}},
              true},
             {"reduced_train_loss",
              R"(\| reduced_train_loss: )" + kNumber,
              Reduction::Last,
              "",
              1,
              {{R"([, ]reduced_train_loss=)" + kNumber, 1}}},
             {"iter_ms", R"(\| train_step_timing in s: )" + kNumber, Reduction::Median, "ms", 1000},
             {"consumed_samples", R"(\| consumed_samples: )" + kNumber, Reduction::Last, "samples"},
         });
  p.completion.end = {R"(`Trainer\.fit` stopped: )", R"(\[after training is done\])"};
  p.completion.counter = {};
  p.completion.restart = {R"(Restored all states from the checkpoint at )"};
  // Signatures: NeMo's logger "[NeMo I 2025-03-07 22:39:50 nemo_logging:361] " and its training
  // line.
  p.completion.signatures = {R"(\[NeMo [IWE] \d{4}-\d\d-\d\d )",
                             R"(Training epoch \d+, iteration \d+/\d+ \|)"};
  return p;
}

}  // namespace aerun::detail
