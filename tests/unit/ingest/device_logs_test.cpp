// Logs made by real training on an NVIDIA H100 (PyTorch 2.11, Transformers 5.17, Lightning 2.6.6;
// tests/fixtures/logs/device/README.md says how): each is detected as its framework's format,
// judged as `aerun ingest` judges it (exit code unknown) and as a run aerun launched (its exit
// code known), and read as its own lines say — each expected value's text is checked to be on
// that line of the file (lines as aerun counts them: a lone '\r' ends a line) first.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "../line_values.hpp"
#include "aerun/case/apply_presets.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/judge/run_judge.hpp"

namespace {

using aerun::testing::LineValue;

struct DeviceLog {
  const char* file;                   // under tests/fixtures/logs/device/logs
  std::vector<std::string> detected;  // `--preset auto`
  int exit_code;                      // the process's, from the matching .exit file
  const char* status;                 // either way: ingested or run
  const char* reason;                 // a part of the reason
  std::vector<LineValue> values;
};

std::vector<DeviceLog> logs() {
  return {
      {"hf-trainer-ok.log",
       {"hf-trainer"},
       0,
       "ok",
       "",
       {{"hf_loss", 46, "'loss': '5.469'", 5.469},
        {"train_runtime_s", 62, "'train_runtime': '4.167'", 4.167},
        {"train_loss", 69, "train_loss               =     5.4706", 5.4706},
        {"train_samples_per_s", 71, "train_samples_per_second =    115.196", 115.196},
        {"eval_loss", 78, "eval_loss               =     5.4675", 5.4675}}},
      {"hf-trainer-ok-unbuffered.log",
       {"hf-trainer"},
       0,
       "ok",
       "",
       {{"hf_loss", 46, "'loss': '5.469'", 5.469},
        {"train_runtime_s", 62, "'train_runtime': '1.577'", 1.577},
        {"eval_loss", 78, "eval_loss               =     5.4675", 5.4675}}},
      // NaN weights from step 25: the Trainer logs grad_norm 'nan' and, filtering NaN losses
      // (logging_nan_inf_filter), a loss of '0' to the end.
      {"hf-trainer-nan.log",
       {"hf-trainer"},
       0,
       "diverged",
       "'grad_norm': 'nan'",
       {{"hf_loss", 46, "'loss': '0'", 0.0}}},
      {"lightning-steps.log",
       {"lightning"},
       0,
       "ok",
       "",
       {{"batch", 22, "28/28", 28.0},
        {"loss", 22, "train_loss: 0.182", 0.182},
        {"it_per_s", 22, "230.33it/s", 230.33}}},
      // The Rich bar's metrics that do not fit wrap onto a line of their own.
      {"lightning-epochs.log",
       {"lightning"},
       0,
       "ok",
       "",
       {{"batch", 22, "Epoch 2/2  ━━━━━━━━━━━━━━━━ 32/32", 32.0},
        {"loss", 22, "train_loss: 0.135", 0.135},
        {"it_per_s", 22, "358.98it/s", 358.98},
        {"val_loss", 23, "val_loss: 0.094", 0.094}}},
      {"lightning-oom.log",
       {"lightning"},
       1,
       "oom",
       "line 50: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 32768.00 GiB.",
       {{"loss", 21, "train_loss: 0.197", 0.197}}},
      {"lightning-nan.log",
       {"lightning"},
       1,
       "diverged",
       "line 165: RuntimeError: Function 'MseLossBackward0' returned nan values",
       {{"loss", 83, "train_loss: 0.196", 0.196}}},
      // torchrun (LOGLEVEL left at WARNING) restarts the failed worker group without a line
      // saying so: the second attempt trains to its end.
      {"torchrun-lightning-restart.log",
       {"lightning"},
       0,
       "ok",
       "1 earlier attempt: launcher_failed (line 51)",
       {{"loss", 73, "train_loss: 0.182", 0.182}}},
      {"torchrun-lightning-sigkill.log",
       {"lightning"},
       1,
       "launcher_failed",
       "line 21: E1127 16:15:39.172000 1271 torch/distributed/elastic/multiprocessing/api.py:986] "
       "failed (exitcode: -9)",
       {}},
      // The same at LOGLEVEL=INFO: torchrun's restart line shows.
      {"torchrun-info-restart.log",
       {"lightning"},
       0,
       "ok",
       "1 earlier attempt: launcher_failed (line 91)",
       {{"batch", 133, "28/28", 28.0}, {"loss", 133, "train_loss: 0.182", 0.182}}},
      // Lightning's tqdm bar (TQDMProgressBar, a CSV logger: v_num), its end line glued to a frame.
      {"lightning-tqdm.log",
       {"lightning"},
       0,
       "ok",
       "",
       {{"batch", 44, "| 28/28 [", 28.0}, {"loss", 44, "train_loss=0.182]", 0.182}}},
      // An out-of-range embedding index on the GPU: torch 2.11's AcceleratorError, a crash.
      {"lightning-device-assert.log",
       {"lightning"},
       1,
       "failed",
       // The device's assert, the first crash line, names the cause (the traceback follows).
       "line 21: /pytorch/aten/src/ATen/native/cuda/Indexing.cu:1515: indexSelectSmallIndex",
       {{"batch", 23, "9/32", 9.0}, {"loss", 23, "train_loss: 1.878", 1.878}}},
      // SIGTERM to torchrun (as scancel sends it) at step 7.
      {"torchrun-sigterm.log",
       {"lightning"},
       1,
       "cancelled",
       "line 21: W1127 16:25:10.896000 900 "
       "torch/distributed/elastic/agent/server/api.py:739] Received 15 death signal",
       {{"batch", 24, "7/32", 7.0}, {"it_per_s", 24, "1.96it/s", 1.96}}},
      // Two CPU ranks over Gloo, one 40 s late for a collective with a 10 s timeout.
      {"torchrun-gloo-timeout.log",
       {},
       1,
       "comm_error",
       "line 13: [rank0]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/"
       "unbound_buffer.cc:78] Timed out waiting 10000ms",
       {}},
      // Two ranks on one GPU: NCCL 2.28 refuses the communicator ("Duplicate GPU detected").
      {"torchrun-nccl-same-gpu.log",
       {},
       1,
       "comm_error",
       "line 14: [rank1]: torch.distributed.DistBackendError: NCCL error in: ",
       {}},
  };
}

std::string path_of(const std::string& file) {
  return std::string(AERUN_FIXTURES) + "/logs/device/logs/" + file;
}

aerun::Extractor read_with(const std::string& path, const std::vector<std::string>& presets) {
  aerun::CaseSpec spec;
  spec.name = "t";
  spec.presets = presets;
  aerun::apply_presets(spec, {});
  return aerun::extract_file(path, spec.metrics, spec.status, spec.startup, spec.completion);
}

aerun::Verdict judged(const aerun::Extractor& ex, std::optional<int> exit_code) {
  aerun::RunEvidence e;
  ex.describe(e);
  e.exit_code = exit_code;
  return aerun::judge_run(e);
}

TEST(DeviceLogs, EachFixtureIsWhatItsMakerSaysItIs) {
  for (const DeviceLog& log : logs()) {
    std::ifstream exit_file(path_of(log.file).substr(0, path_of(log.file).size() - 4) + ".exit");
    std::string word;
    int code = -1;
    exit_file >> word >> code;
    EXPECT_EQ(code, log.exit_code) << log.file;
  }
}

TEST(DeviceLogs, AutoDetectionNamesTheFramework) {
  const aerun::PresetDetector detector;
  for (const DeviceLog& log : logs())
    EXPECT_EQ(detector.detect(path_of(log.file)), log.detected) << log.file;
}

TEST(DeviceLogs, EachIsJudgedAndReadAsItsLinesSay) {
  for (const DeviceLog& log : logs()) {
    SCOPED_TRACE(log.file);
    const std::string path = path_of(log.file);
    const aerun::Extractor ex = read_with(path, log.detected);
    for (const std::optional<int> exit_code :
         {std::optional<int>(), std::optional<int>(log.exit_code)}) {
      SCOPED_TRACE(exit_code ? "as a run aerun launched" : "as an ingested log");
      const aerun::Verdict v = judged(ex, exit_code);
      EXPECT_EQ(v.status, log.status) << v.reason;
      if (*log.reason == '\0')
        EXPECT_EQ(v.reason, "");
      else
        EXPECT_NE(v.reason.find(log.reason), std::string::npos) << v.reason;
    }
    aerun::testing::expect_line_values(path, ex, log.values);
  }
}

}  // namespace
