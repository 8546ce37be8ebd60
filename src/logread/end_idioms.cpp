#include "logread/end_idioms.hpp"

#include <array>
#include <cstring>
#include <string>

namespace aerun::logread {

namespace {

// Each idiom, lowercase, with code that prints it (the code index's ids where the repository is
// not named: search "index id N").
// Not "End of training": pytorch/examples' word_language_model prints it after a Ctrl-C too.
constexpr auto kIdioms = std::to_array<std::string_view>({
    // torchtitan train.py: logger.info("Training completed"); print(f"Training completed in
    // {total_time:.2f} sec") (index 19471783292).
    "training completed",
    // print("Training complete!") (index 9886547672, 71655468902); logger.info(f"Training
    // complete. Best Val LPIPS: ...") (index 62112043412).
    "training complete",
    // print(f"[{cc}] Training finished.") (index 8087781708); logger.info("Training finished in
    // {}s.") (index 16138728); sockeye's "Training finished" (tests/fixtures/logs/generic/sockeye).
    "training finished",
    // print("Finished training") (index 10424055631); print("Finished Training") (index 5155366).
    "finished training",
    "done training",              // fairseq_cli/train.py: "done training in {:.1f} seconds"
    "optimization done",          // caffe solver.cpp: LOG(INFO) << "Optimization Done."
    "optimization finished",      // TensorFlow 1 examples: print("Optimization Finished!")
    "total training time",        // detectron2 engine/hooks.py: "Total training time: {}"
    "the training was finished",  // espnet2/train/trainer.py: "The training was finished at ..."
    "epochs completed in",  // ultralytics yolov5/train.py: f"{epochs} epochs completed in ..."
    // print('Training took {} seconds'...) (index 6051537637); LOG(INFO) << "Training took "
    // (index 8428552).
    "training took",
    // facebookresearch DeiT/DINO/MAE main.py: print('Training time {}'); LitGPT
    // finetune/lora.py: fabric.print(f"Training time: {...:.2f}s").
    "training time",
    // Flower's server: log(INFO, "Run finished %s round(s) in %.2fs", ...) (flwr
    // server/server.py; tests/fixtures/logs/generic/flower).
    "run finished ",
});

// Early stopping: the trainer ended training itself, before its planned count, as it was asked
// to (it finished; the run is ok).
constexpr auto kEarlyStops = std::to_array<std::string_view>({
    // Keras EarlyStopping.on_train_end: print(f"Epoch {self.stopped_epoch + 1}: early stopping")
    // (older Keras: "Epoch 00045: early stopping"; copies at index 18973572241, 5697913260).
    ": early stopping",
    // XGBoost's early-stop callback: "Stopping. Best iteration:\n[3] ..."
    // (tests/fixtures/logs/generic/xgboost).
    "stopping. best iteration:",
    // LightGBM callback.early_stopping: "Early stopping, best iteration is:\n[1274] ..." (logs at
    // index 10540115439, 6486054549).
    "early stopping, best iteration is:",
    // scikit-learn neural_network/_multilayer_perceptron.py: "Training loss did not improve more
    // than tol=%f for %d consecutive epochs. Stopping." (tests/fixtures/logs/generic/sklearn).
    "consecutive epochs. stopping.",
    // CatBoost: CATBOOST_NOTICE_LOG << "Stopped by overfitting detector (" ... (index 69379322001).
    "stopped by overfitting detector",
    // YOLOv5 / Ultralytics utils EarlyStopping: "Stopping training early as no improvement observed
    // in last 100 epochs." (tests/fixtures/logs/generic/yolov5).
    "stopping training early as no improvement observed",
});

bool contains_lower(std::string_view hay, std::string_view needle) {
  if (needle.size() > hay.size()) return false;
  for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    size_t k = 0;
    while (k < needle.size()) {
      char c = hay[i + k];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != needle[k]) break;
      ++k;
    }
    if (k == needle.size()) return true;
  }
  return false;
}

// The message of a log line: after its logging prefix ("[INFO] [train.py:555] ", "... INFO - ").
std::string_view message_of(std::string_view line) {
  size_t at = 0;
  for (std::string_view sep : {"] ", " - ", ": "}) {
    const size_t p = line.rfind(sep);
    if (p != std::string_view::npos && p + sep.size() > at) at = p + sep.size();
  }
  std::string_view m = line.substr(std::min(at, line.size()));
  while (!m.empty() && (m.back() == ' ' || m.back() == '\t')) m.remove_suffix(1);
  while (!m.empty() && (m.front() == ' ' || m.front() == '\t')) m.remove_prefix(1);
  return m;
}

}  // namespace

bool contains_ci(std::string_view hay, std::string_view needle) {
  return contains_lower(hay, needle);
}

bool launcher_says_success(std::string_view line) {
  // deepspeed/launcher/launch.py: logger.info(f"Process {process.pid} exits successfully.")
  return line.size() < 400 && ::memmem(line.data(), line.size(), " exits successfully.", 20);
}

bool says_training_ended(std::string_view line) {
  // What the platform writes: an IDE's run console, at the process's end (IntelliJ / PyCharm,
  // ExecutionBundle "finished.with.exit.code.text.message": "Process finished with exit code
  // {0}"; tests/fixtures/logs/generic/dl4j); a non-zero code is a failure (preset_status.cpp).
  if (line.starts_with("Process finished with exit code 0") &&
      (line.size() == 33 || line[33] == ' ' || line[33] == '\r'))
    return true;
  // NVIDIA DeepLearningExamples log their run's summary after training with DLLogger's empty
  // step: dllogger.log(step=tuple(), data={"e2e_train_time": ...}) (index ids 16543686880,
  // 48080438598, 4724963553), printed "DLL 2020-05-28 03:32:59.714030 - () run_time : 442.85".
  if (line.starts_with("DLL ") && line.find(" - () ") != std::string_view::npos) return true;
  // A notebook cell run under IPython's %%time magic prints its times once the cell's code
  // returned (IPython/core/magics/execution.py, ExecutionMagics.time: print("CPU times: user %s,
  // sys: %s, total: %s" ...) then print("Wall time: %s" ...); copies at index 2326664493): the
  // cell that trained finished (a traceback instead is a failure, which wins).
  if (line.size() < 80 && line.starts_with("Wall time: ") && line.size() > 11 && line[11] >= '0' &&
      line[11] <= '9')
    return true;
  // A script's last word: print("Done!") (the PyTorch quickstart tutorial's training loop,
  // icefall's train.py: logging.info("Done!")).
  if (line.size() < 200) {
    const std::string_view m = message_of(line);
    for (std::string_view w : {"Done!", "Done.", "All done!", "All done.", "Training done!"})
      if (m == w) return true;
  }
  // Every idiom has "rain", "ptimiz", "ompleted in" or "un finished", every early stop "top": a
  // cheap test first.
  if (line.size() > 400) return false;
  if (::memmem(line.data(), line.size(), "top", 3) ||
      ::memmem(line.data(), line.size(), "TOP", 3)) {
    std::string_view trimmed = line;
    while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\r'))
      trimmed.remove_suffix(1);
    for (const auto idiom : kEarlyStops)
      if (idiom == ": early stopping"
              ? trimmed.size() >= idiom.size() &&
                    contains_lower(trimmed.substr(trimmed.size() - idiom.size()), idiom)
              : contains_lower(line, idiom))
        return true;
  }
  const bool maybe = ::memmem(line.data(), line.size(), "rain", 4) ||
                     ::memmem(line.data(), line.size(), "ptimiz", 6) ||
                     ::memmem(line.data(), line.size(), "RAIN", 4) ||
                     ::memmem(line.data(), line.size(), "ompleted in", 11) ||
                     ::memmem(line.data(), line.size(), "un finished", 11);
  if (!maybe) return false;
  // "Training resnet-18 complete in 7m 4s" (the PyTorch transfer-learning tutorial's
  // print(f'Training complete in {...}m {...}s'), with words between.
  if (contains_lower(line, "training") &&
      (contains_lower(line, " complete in ") || contains_lower(line, " completed in ") ||
       contains_lower(line, " finished in ")))
    return true;
  for (const auto idiom : kIdioms)
    if (contains_lower(line, idiom)) {
      // "Finished training step 19", "finished training it 10240/306969": a step, not the end.
      if (idiom == "finished training" || idiom == "training finished" ||
          idiom == "training completed" || idiom == "training complete") {
        std::string lower(line);
        for (char& c : lower)
          if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        const size_t at = lower.find(idiom) + idiom.size();
        std::string_view rest = std::string_view(lower).substr(at);
        while (!rest.empty() && (rest.front() == ' ' || rest.front() == ':')) rest.remove_prefix(1);
        bool step = false;
        for (std::string_view w : {"step", "it ", "iter", "batch", "epoch", "for epoch"})
          step |= rest.starts_with(w);
        if (step || (!rest.empty() && rest.front() >= '0' && rest.front() <= '9')) continue;
      }
      // "Training time" only as a line's message, not inside "epoch training time: 3s".
      if (idiom == "training time") {
        const auto at = line.find("Training time");
        if (at == std::string_view::npos || at + 13 >= line.size() ||
            (line[at + 13] != ' ' && line[at + 13] != ':'))
          continue;
        bool message_start = true;
        for (size_t k = 0; k < at; ++k)
          if (line[k] != ' ' && line[k] != '\t') message_start = false;
        if (!message_start && at >= 2 && line[at - 1] == ' ' && line[at - 2] == ']')
          message_start = true;
        if (!message_start) continue;
      }
      return true;
    }
  return false;
}

}  // namespace aerun::logread
