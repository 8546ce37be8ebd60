// The `mlperf` preset: MLPerf Training's ":::MLLOG {json}" records (mlcommons/logging,
// mlperf_logging/mllog: keys in the order namespace, time_ms, event_type, key, value, metadata),
// read key by key: the run ends with run_stop, whose metadata's status is "success" or
// "aborted"; epochs (epoch_num), blocks, eval_accuracy, tracked_stats' throughput.
#include "aerun/judge/run_status.hpp"
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset mlperf_v1() {
  Preset p;
  p.name = "mlperf";
  p.version = 1;
  p.headline = {"eval_accuracy", "throughput"};
  p.summary =
      "MLPerf Training :::MLLOG records: run_stop status, epochs, eval accuracy, throughput";
  const std::string rec = R"re(:::MLLOG \{.*"key": )re";
  add_metrics(
      p,
      {
          {"epoch",
           rec + R"re("(?:epoch_stop|block_stop|eval_stop)".*"(?:epoch_num|first_epoch_num)": )re" +
               kNumber,
           Reduction::Last,
           "epochs",
           1,
           {{R"re(:::MLL [0-9.]+ (?:epoch_stop|block_stop|eval_stop): \{.*"(?:epoch_num|first_epoch_num)": )re" +
                 kNumber,
             1}},
           true},
          {"eval_accuracy",
           rec + R"re("eval_accuracy", "value": )re" + kNumber,
           Reduction::Last,
           "",
           1,
           {{R"re(:::MLL [0-9.]+ eval_accuracy: \{"value": )re" + kNumber, 1}}},
          {"samples_count", R"re("samples_count": )re" + kNumber, Reduction::Last, "samples"},
          {"throughput", rec + R"re("tracked_stats", "value": \{"throughput": )re" + kNumber,
           Reduction::Mean, "samples/s"},
          {"train_samples", rec + R"re("train_samples", "value": )re" + kNumber, Reduction::Last,
           "samples"},
      });
  // Before v0.7 (2019) the records were ":::MLL 1558516128.982 eval_accuracy: {\"value\": ...}".
  p.completion.end = {rec + R"re("run_stop".*"status": "success")re",
                      R"re(:::MLL [0-9.]+ run_stop: \{.*"status": "success")re"};
  const SourceLoc loc{"preset mlperf@1", 0, 0};
  p.status = {{rec + R"re("run_stop".*"status": "aborted")re", run_status::failed, loc},
              {R"re(:::MLL [0-9.]+ run_stop: \{.*"status": "aborted")re", run_status::failed, loc}};
  // Signatures: the records themselves, and NVIDIA's wrappers' ":::DLPAL" / ":::SYSJSON" lines.
  p.completion.signatures = {R"re(:::MLLOG \{)re", R"re(:::DLPAL )re", R"re(:::SYSJSON \{)re",
                             R"re(:::MLL [0-9.]+ [a-z_]+: \{)re"};
  return p;
}

}  // namespace aerun::detail
