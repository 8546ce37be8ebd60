// The `hf-trainer` preset: Hugging Face Trainer's logged dicts and its end-of-training summary.
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset hf_trainer_v1() {
  Preset p;
  p.name = "hf-trainer";
  p.version = 1;
  p.headline = {"train_loss", "train_samples_per_s", "train_runtime_s"};
  p.summary = "Hugging Face Trainer: loss dicts, train_runtime / train_samples_per_second";
  const std::string& num = kNumber;
  add_metrics(p, {
                     {"hf_loss", R"(\{'loss': )" + num, Reduction::Last, "", 1, {}, true},
                     {"hf_grad_norm", R"('grad_norm': )" + num, Reduction::Last, ""},
                     {"hf_learning_rate", R"('learning_rate': )" + num, Reduction::Last, ""},
                     {"hf_epoch", R"('epoch': )" + num, Reduction::Last, "epochs"},
                     {"train_runtime_s", R"('train_runtime': )" + num, Reduction::Last, "s"},
                     {"train_samples_per_s",
                      R"('train_samples_per_second': )" + num,
                      Reduction::Last,
                      "samples/s",
                      1,
                      {{R"(train_samples_per_second\s+=\s+)" + num, 1}}},
                     {"train_steps_per_s",
                      R"('train_steps_per_second': )" + num,
                      Reduction::Last,
                      "steps/s",
                      1,
                      {{R"(train_steps_per_second\s+=\s+)" + num, 1}}},
                     {"train_loss",
                      R"('train_loss': )" + num,
                      Reduction::Last,
                      "",
                      1,
                      {{R"(  train_loss\s+=\s+)" + num, 1}}},
                 });
  // Completion: Trainer.train() logs its final metrics dict (train_runtime, ...) and
  // "Training completed. Do not forget to share your model on huggingface.co/models =)"
  // (transformers/trainer.py, _inner_training_loop); `trainer.log_metrics("train", ...)` prints
  // the "***** train metrics *****" table.
  p.completion.end = {R"(\{'train_runtime': )", R"(Training completed\. Do not forget)",
                      R"(\*\*\*\*\* train metrics \*\*\*\*\*)"};
  // Resuming: "  Continuing training from checkpoint, will skip to saved global_step"
  // (trainer.py, _inner_training_loop). Signatures: the same function's "***** Running training
  // *****" banner and its "  Total optimization steps = 500".
  p.completion.restart = {R"(Continuing training from checkpoint, will skip to saved global_step)"};
  p.completion.signatures = {R"(\*\*\*\*\* Running training \*\*\*\*\*)",
                             R"(Total optimization steps = \d)"};
  return p;
}

}  // namespace aerun::detail

namespace aerun::detail {

// Transformers 5 prints every float of the logged dict as a string of 4 significant digits
// (trainer_callback.py, ProgressCallback.on_log and PrinterCallback: f"{v:.4g}"):
// {'loss': '1.363', 'grad_norm': '1.094', 'learning_rate': '5e-05', 'epoch': '1'}. Version 2 reads
// both forms, TRL's keys (SFT: mean_token_accuracy, num_tokens, entropy; DPO: rewards/*), the
// eval dicts, and the training bar's step of total ("| 1271/3414 [12:38<22:43, 1.57it/s]") as a
// completion counter.
Preset hf_trainer_v2() {
  Preset p;
  p.name = "hf-trainer";
  p.version = 2;
  p.headline = {"train_loss", "train_samples_per_s", "train_runtime_s"};
  p.summary =
      "Hugging Face Trainer 4.x and 5.x (quoted values), TRL keys, eval loss, step of total";
  const std::string& num = kNumber;
  auto key = [](const char* k) { return std::string("'") + k + R"(': '?)"; };
  add_metrics(p,
              {
                  {"hf_loss", R"(\{'loss': '?)" + num, Reduction::Last, "", 1, {}, true},
                  {"hf_grad_norm", key("grad_norm") + num, Reduction::Last, ""},
                  {"hf_learning_rate", key("learning_rate") + num, Reduction::Last, ""},
                  {"hf_epoch", key("epoch") + num, Reduction::Last, "epochs"},
                  {"train_runtime_s", key("train_runtime") + num, Reduction::Last, "s"},
                  {"train_samples_per_s",
                   key("train_samples_per_second") + num,
                   Reduction::Last,
                   "samples/s",
                   1,
                   {{R"(train_samples_per_second\s+=\s+)" + num, 1}}},
                  {"train_steps_per_s",
                   key("train_steps_per_second") + num,
                   Reduction::Last,
                   "steps/s",
                   1,
                   {{R"(train_steps_per_second\s+=\s+)" + num, 1}}},
                  {"train_loss",
                   key("train_loss") + num,
                   Reduction::Last,
                   "",
                   1,
                   {{R"(  train_loss\s+=\s+)" + num, 1}}},
                  // The eval dicts, and the "***** eval metrics *****" table that
                  // trainer.log_metrics("eval", …) prints (tests/fixtures/logs/device).
                  {"eval_loss",
                   key("eval_loss") + num,
                   Reduction::Last,
                   "",
                   1,
                   {{R"(  eval_loss\s+=\s+)" + num, 1}}},
                  {"mean_token_accuracy", R"(\{'loss'.*'mean_token_accuracy': '?)" + num,
                   Reduction::Last, ""},
                  {"num_tokens", R"(\{'loss'.*'num_tokens': '?)" + num, Reduction::Last, "tokens"},
                  {"rewards_accuracy", key("rewards/accuracies") + num, Reduction::Last, ""},
                  {"rewards_margin", key("rewards/margins") + num, Reduction::Last, ""},
              });
  p.completion.end = {R"(\{'train_runtime': )", R"(Training completed\. Do not forget)",
                      R"(\*\*\*\*\* train metrics \*\*\*\*\*)"};
  // The training bar reaching its total (max_steps) is an end too; it is the whole run's bar.
  // (tqdm writes "1.57it/s", or "2.10s/it" for a step over a second).
  p.completion.counter = {R"(\| (\d+)/(\d+) \[[0-9:]+<[0-9:?]+, +[0-9.?]+it/s)",
                          R"(\| (\d+)/(\d+) \[[0-9:]+<[0-9:?]+, +[0-9.?]+s/it)"};
  p.completion.restart = {R"(Continuing training from checkpoint, will skip to saved global_step)"};
  // Signatures: also transformers' logging format "[INFO|trainer.py:2681] 2025-05-15 07:30:25,556
  // >> " (utils/logging.py with a handler's format, as LLaMA-Factory sets it).
  p.completion.signatures = {R"(\*\*\*\*\* Running training \*\*\*\*\*)",
                             R"(Total optimization steps = \d)", R"(\{'loss': '?[0-9])",
                             R"(\[(?:INFO|WARNING)\|trainer\.py:\d+\] )"};
  return p;
}

}  // namespace aerun::detail
