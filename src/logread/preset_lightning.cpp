// The `lightning` preset: PyTorch Lightning and Lightning Fabric, and LitGPT on Fabric. The tqdm
// bar "Epoch 0:  45%|████▌     | 450/1000 [00:30<00:36, 15.00it/s, v_num=0, train_loss=2.340]"
// (redrawn with '\r': each frame is a line), the Rich bar "Epoch 0/-2 ━━━ 5072/-- 2:40:43 •
// -:--:-- 0.57it/s v_num: xn3p train_loss: 10.416", the end line "`Trainer.fit` stopped:
// `max_steps=10` reached." (lightning/pytorch/loops/fit_loop.py), and LitGPT's "Epoch 34 | iter
// 3050700 step 610140 | loss train: 2.846, val: 2.861 | iter time: 112.20 ms (step)" (older "iter
// 2 step 1: loss 3.3320, iter time: 765.52ms") with its "Training time: 11.20s" / "| - Training
// Time : 48.30 s" summary.
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset lightning_v1() {
  Preset p;
  p.name = "lightning";
  p.version = 1;
  p.headline = {"loss", "it_per_s", "iter_ms"};
  p.summary = "PyTorch Lightning / Fabric / LitGPT: progress bars, end lines, LitGPT iter lines";
  add_metrics(p,
              {
                  // The bar counts batches within an epoch: progress, not a global step. The Rich
                  // bar pads its description column ("Epoch 2/2  ━━━ 32/32").
                  {"batch",
                   R"(Epoch \d+:\s+\d+%\|[^|]*\|\s*(\d+)/(?:\d+|\?) \[)",
                   Reduction::Last,
                   "",
                   1,
                   {{R"(Epoch \d+: : (\d+)it \[)", 1},
                    {R"(Epoch \d+(?:/-?\d+)?\s+\S+\s+(\d+)/(?:\d+|--) )", 1}},
                   true},
                  {"it_per_s",
                   R"(Epoch \d+: .*\[[0-9:]+(?:<[0-9:?]+)?,\s+)" + kNumber + "it/s",
                   Reduction::Mean,
                   "it/s",
                   1,
                   {{R"(Epoch \d+.* )" + kNumber + R"(it/s v_num)", 1},
                    // The Rich bar with no logger (no v_num), as Lightning 2.6 writes it to a file:
                    // "Epoch 1/-2 ━━━ 28/28 0:00:00 •        230.33it/s train_loss: 0.182".
                    {R"(Epoch \d+/-?\d+\s+\S+ .* )" + kNumber + "it/s", 1}}},
                  {"loss",
                   R"([, ](?:train_)?loss=)" + kNumber,
                   Reduction::Last,
                   "",
                   1,
                   {{R"( train_loss: )" + kNumber, 1},
                    {R"(\| loss train: )" + kNumber, 1},
                    {R"(iter \d+ step \d+: loss )" + kNumber, 1}}},
                  {"iter",
                   R"(\| iter (\d+) step \d+ \| loss train: )",
                   Reduction::Last,
                   "",
                   1,
                   {{R"(iter (\d+) step \d+: loss )", 1}},
                   true},
                  // LitGPT's "| loss train: 2.846, val: 2.861", the tqdm bar's "val_loss=0.094" and
                  // the Rich bar's "val_loss: 0.094" (Lightning 2.6 wraps the Rich bar's metrics
                  // that do not fit onto a line of their own: tests/fixtures/logs/device).
                  {"val_loss",
                   R"(\| loss train: [0-9.a-z]+, val: )" + kNumber,
                   Reduction::Last,
                   "",
                   1,
                   {{R"([, ]val_loss=)" + kNumber, 1}, {R"( val_loss: )" + kNumber, 1}}},
                  {"iter_ms", R"(iter time: )" + kNumber + " ?ms", Reduction::Median, "ms"},
                  {"training_time_s",
                   R"(Training time: )" + kNumber + "s",
                   Reduction::Last,
                   "s",
                   1,
                   {{R"(\| - Training Time\s*: )" + kNumber + " s", 1}}},
                  {"memory_gb",
                   R"(Memory used: )" + kNumber + " GB",
                   Reduction::Max,
                   "GB",
                   1,
                   {{R"(\| - Memory Used\s*: )" + kNumber + " GB", 1}}},
              });
  p.completion.end = {R"(`Trainer\.fit` stopped: )", R"(\| - Training Time\s*: )",
                      R"(^Training time: [0-9.]+s)"};
  // Resuming: "Restored all states from the checkpoint at /ckpt/last.ckpt"
  // (trainer/connectors/checkpoint_connector.py).
  p.completion.restart = {R"(Restored all states from the checkpoint at )"};
  // Signatures: the accelerator lines ("GPU available: True (cuda), used: True"), "LOCAL_RANK: 0
  // - CUDA_VISIBLE_DEVICES: [0]", the model summary's header, LitGPT's "Number of trainable
  // parameters: 12,226,560".
  p.completion.signatures = {
      R"(GPU available: (?:True|False))", R"(LOCAL_RANK: \d+ - CUDA_VISIBLE_DEVICES)",
      R"(\| Name\s+\| Type\s+\| Params)", R"(Number of trainable parameters: )"};
  return p;
}

}  // namespace aerun::detail
