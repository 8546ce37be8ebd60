// The `hf-trainer` preset: Hugging Face Trainer's logged dicts and its end-of-training summary.
#include "case/preset_families.hpp"

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
  return p;
}

}  // namespace aerun::detail
