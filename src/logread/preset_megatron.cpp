// The `megatron` preset: Megatron-LM / Megatron-DeepSpeed iteration lines, in every wording seen
// (ms or s, timestamp or "[defaultN]:" prefixes, key=value logging).
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset megatron_v1() {
  Preset p;
  p.name = "megatron";
  p.version = 1;
  p.headline = {"iter_ms", "tflops_per_gpu", "samples_per_s", "lm_loss"};
  p.summary = "Megatron-LM iteration lines: time per iteration, throughput, loss, grad norm";
  const std::string& num = kNumber;
  add_metrics(
      p, {
             {"iteration",
              R"(iteration\s+(\d+)/\s*\d+)",
              Reduction::Last,
              "",
              1,
              {{R"(iteration=\s*(\d+)/\s*\d+)", 1}},
              true},
             {"train_iters",
              R"(iteration\s+\d+/\s*(\d+))",
              Reduction::Last,
              "",
              1,
              {{R"(iteration=\s*\d+/\s*(\d+))", 1}}},
             {"iter_ms",
              R"(elapsed time per iteration \(ms\): )" + num,
              Reduction::Mean,
              "ms",
              1,
              {{R"(elapsed time per iteration \(s\): )" + num, 1000},
               {R"(elapsed_time_per_iteration_ms=)" + num, 1}},
              true},
             {"tflops_per_gpu",
              R"(throughput per GPU \(TFLOP/s/GPU\): )" + num,
              Reduction::Mean,
              "TFLOP/s",
              1,
              // "| TFLOPs=9.31 |" (ALCF key=value wording), never "[LM]-TFLOPs=" or
              // "[DS]-TFLOPs=": a line with both figures gives tflops_lm and tflops_ds instead.
              {{R"(TFLOPs: )" + num, 1}, {R"( TFLOPs=)" + num, 1}}},
             // Megatron-DeepSpeed forks that log two TFLOPs figures on one line,
             // "[LM]-TFLOPs=49.66 | [DS]-TFLOPs=73.32": the model's own count and DeepSpeed's
             // flops profiler's.
             {"tflops_lm", R"(\[LM\]-TFLOPs=)" + num, Reduction::Mean, "TFLOP/s"},
             {"tflops_ds", R"(\[DS\]-TFLOPs=)" + num, Reduction::Mean, "TFLOP/s"},
             {"samples_per_s",
              R"(samples per second: )" + num,
              Reduction::Mean,
              "samples/s",
              1,
              {{R"(samples_per_second=)" + num, 1}}},
             {"tokens_per_gpu_s",
              R"(tokens per gpu per second \(tgs\): )" + num,
              Reduction::Mean,
              "tokens/s/GPU",
              1,
              {{R"(tokens_per_gpu_per_second_tgs=)" + num, 1}}},
             // Megatron's timer line around save_checkpoint(): `time (ms) | save-checkpoint:
             // 17960.68` (Timers.log, 2021); newer Megatron prints the timer on its own line as
             // `save-checkpoint ....: (min, max)` under "(min, max) time across ranks (ms):"
             // (the max is taken) or `save-checkpoint ....: max`.
             {"save_checkpoint_ms",
              R"(\| save-checkpoint: )" + num,
              Reduction::Mean,
              "ms",
              1,
              {{R"(save-checkpoint \.+: \([0-9.]+, )" + num + R"(\))", 1},
               {R"(save-checkpoint \.+: )" + num, 1}}},
             // `lm-loss:` is the wording of Megatron-DeepSpeed's pipeline-parallel runs (2021).
             {"lm_loss",
              R"(lm loss: )" + num,
              Reduction::Last,
              "",
              1,
              {{R"(lm loss=)" + num, 1}, {R"(lm-loss: )" + num, 1}}},
             {"grad_norm",
              R"(grad norm: )" + num,
              Reduction::Last,
              "",
              1,
              {{R"(grad_norm=)" + num, 1}}},
             {"loss_scale",
              R"(loss scale: )" + num,
              Reduction::Last,
              "",
              1,
              {{R"(loss_scale=)" + num, 1}}},
             {"skipped_iters",
              R"(number of skipped iterations:\s*(\d+))",
              Reduction::Sum,
              "",
              1,
              {{R"(number_of_skipped_iterations=\s*(\d+))", 1}}},
             {"nan_iters",
              R"(number of nan iterations:\s*(\d+))",
              Reduction::Sum,
              "",
              1,
              {{R"(number_of_nan_iterations=\s*(\d+))", 1}}},
         });
  p.startup.first_step = R"(iteration\s+1/)";
  // Completion. Megatron-LM's pretrain() ends with print_datetime('after training is done')
  // ("[after training is done] datetime: 2022-06-29 03:08:05", megatron/training.py); a run that
  // stops on --exit-interval or --exit-duration-in-mins prints "exiting program at iteration N"
  // (the same file, seen in seed 002) — a planned end too. The iteration line states done/planned.
  p.completion.end = {R"(\[after training is done\])", R"(exiting program at iteration \d+)"};
  // Resuming: "  successfully loaded checkpoint from /ckpt [ t 0/1, p 0/1 ] at iteration 100"
  // (megatron/training/checkpointing.py, load_checkpoint; four wordings since 2020, all with
  // this text).
  p.completion.restart = {R"(successfully loaded checkpoint from )"};
  // Signatures: megatron/training/arguments.py prints "using world size: 1, data-parallel size:
  // 1, ..." (older "data-parallel-size") and the "------------------------ arguments
  // ------------------------" dump; initialize.py "> initializing torch distributed ...";
  // training.py "[before the start of training step]" (seed 002, tests/fixtures/logs).
  p.completion.signatures = {R"(using world size: \d+, )",
                             R"(------------------------ arguments ------------------------)",
                             R"(> initializing torch distributed \.\.\.)",
                             R"(\[before the start of training step\])",
                             R"(> building \S+ tokenizer \.\.\.)"};
  p.completion.counter = {R"(iteration\s+(\d+)/\s*(\d+) \|)", R"(iteration=\s*(\d+)/\s*(\d+))"};
  return p;
}

// Version 2: the iteration counter only in Megatron's own padded shape, "iteration {:8d}/{:8d} |"
// (" iteration       30/      50 |"): NeMo 2's "Training epoch 0, iteration 10/99 |" (another
// framework, counting within an epoch) is no longer read as Megatron's iteration of its total.
Preset megatron_v2() {
  Preset p = megatron_v1();
  p.version = 2;
  for (MetricSpec& m : p.metrics) {
    m.loc = SourceLoc{"preset megatron@2", 0, 0};
    if (m.name == "iteration") m.pattern = R"(iteration\s+(\d+)/\s+\d+ \|)";
    if (m.name == "train_iters") m.pattern = R"(iteration\s+\d+/\s+(\d+) \|)";
  }
  p.completion.counter = {R"(iteration\s+(\d+)/\s+(\d+) \|)", R"(iteration=\s*(\d+)/\s*(\d+))"};
  return p;
}

}  // namespace aerun::detail
