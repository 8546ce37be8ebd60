// The `nanogpt` preset: Andrej Karpathy's nanoGPT (train.py: "iter 10: loss 3.2202, time
// 893.76ms, mfu 16.68%", "step 2000: train loss 1.2, val loss 1.3") and llm.c (train_gpt2.cu:
// "step   61/74 | loss 3.208939 (+nanz)| norm 1.4800 (+nanz)| lr 3.00e-04 | 44.57 ms | -100.0%
// bf16 MFU | 91886 tok/s", "total average iteration time: 44.6 ms").
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset nanogpt_v1() {
  Preset p;
  p.name = "nanogpt";
  p.version = 1;
  p.headline = {"loss", "iter_ms", "mfu"};
  p.summary = "nanoGPT and llm.c: iteration lines with loss, time, MFU, tokens/s";
  const std::string llmc = R"(step\s+\d+/\d+ \| loss )";
  add_metrics(
      p,
      {
          {"step",
           R"(iter (\d+): loss )",
           Reduction::Last,
           "",
           1,
           {{R"(step\s+(\d+)/\d+ \| loss )", 1}},
           true},
          {"train_steps", R"(step\s+\d+/(\d+) \| loss )", Reduction::Last, ""},
          {"loss", R"(iter \d+: loss )" + kNumber, Reduction::Last, "", 1, {{llmc + kNumber, 1}}},
          {"val_loss", R"(, val loss )" + kNumber, Reduction::Last, ""},
          {"grad_norm", R"(\)\| norm )" + kNumber, Reduction::Last, ""},
          // nanoGPT's time is of one iteration, llm.c's of one step, both ms.
          {"iter_ms",
           R"(: loss [-+0-9.naife]+, time )" + kNumber + "ms",
           Reduction::Median,
           "ms",
           1,
           {{R"(\| lr \S+ \| )" + kNumber + " ms", 1}}},
          // A running estimate: -100 until it has enough steps; the last is the one.
          {"mfu",
           R"(ms, mfu )" + kNumber + "%",
           Reduction::Last,
           "%",
           1,
           {{R"( ms \| )" + kNumber + R"(% \w+ MFU)", 1}}},
          {"tokens_per_s", R"(MFU \| )" + kNumber + " tok/s", Reduction::Mean, "tokens/s"},
      });
  p.completion.end = {R"(total average iteration time: )"};
  p.completion.counter = {R"(step\s+(\d+)/(\d+) \| loss )"};
  // Signatures: nanoGPT's "tokens per iteration will be: 16,384" and "Initializing a new model
  // from scratch" / "Resuming training from out"; llm.c's "| Parameter  | Value |" table and its
  // older "[GPT-2]" block with "num_parameters: 124475904".
  p.completion.signatures = {R"(tokens per iteration will be: )",
                             R"(Initializing a new model from scratch)",
                             R"(\| Parameter\s+\| Value\s+\|)", R"(num_parameters: \d+)"};
  p.completion.restart = {R"(Resuming training from )"};
  return p;
}

}  // namespace aerun::detail
