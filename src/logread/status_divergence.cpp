// The base vocabulary's numerical divergence: training ran and failed numerically (`diverged`).
#include "aerun/judge/run_status.hpp"
#include "logread/preset_families.hpp"

namespace aerun::detail {

void add_divergence_status(const StatusAdder& add) {
  add(run_status::diverged,
      {// Megatron-LM: "Rank 3: found NaN in local grad norm in backward pass before data-parallel
       // communication collective" (<= Megatron-Core 0.10, distributed/param_and_grad_buffer.py;
       // bigscience-workshop/Megatron-DeepSpeed#396), and since 0.11 the rerun state machine's
       // "Unexpected result nan (message='found NaN in local grad norm for bucket #0 ...')"
       // (megatron/core/rerun_state_machine.py).
       R"(found (?:NaN|Inf) in local )", R"(Unexpected result (?:nan|inf|-inf) \(message=)",
       // DeepSpeed fp16: "Current loss scale already at minimum - cannot decrease scale anymore.
       // Exiting run." (deepspeed/runtime/fp16/loss_scaler.py, DynamicLossScaler.update_scale).
       R"(Current loss scale already at minimum)",
       // fairseq: "Minimum loss scale reached (0.0001). Your loss is probably exploding. ..."
       // (fairseq/optim/dynamic_loss_scaler.py; facebookresearch/fairseq#512).
       R"(Minimum loss scale reached)",
       // torch.autograd anomaly mode: "Function 'MulBackward0' returned nan values in its 0th
       // output." (torch/csrc/autograd/engine.cpp); clip_grad_norm_(error_if_nonfinite=True):
       // "The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot
       // be clipped." (torch/nn/utils/clip_grad.py).
       R"(returned (?:nan|inf) values in its)", R"(is non-finite, so it cannot be clipped)",
       // Lightning EarlyStopping(check_finite=True): "Monitored metric train_loss = nan is not
       // finite. Previous best value was 2.300. Signaling Trainer to stop."
       // (lightning/pytorch/callbacks/early_stopping.py, _evaluate_stopping_criteria).
       R"(is not finite\. Previous best value was)",
       // Composer's NaN monitor: "Train loss contains a NaN." (composer/callbacks/nan_monitor.py);
       // torchtitan's RL trainer: "Loss is NaN/Inf; training diverged"; TensorFlow's
       // NanTensorHook: "Model diverged with loss = NaN." (tensorflow/tensor2tensor#1074); NeMo:
       // "Got NaN loss with non-empty input" (megatron_gpt_model.py).
       R"(Train loss contains a NaN)", R"(training diverged)", R"(Model diverged with loss = NaN)",
       R"(Got NaN loss with non-empty input)",
       // A loss printed as NaN or Inf: nanoGPT "iter 900: loss nan, time 81.2ms"
       // (karpathy/nanoGPT#215), Megatron "lm loss: NAN" ({:.6E} of nan), HF Trainer
       // "{'loss': nan" (4.x) and "'loss': 'nan'" (5.x), Lightning's bar "train_loss=nan",
       // torchtitan "loss:     nan", torchtune "Loss: nan". The judge calls it a divergence only
       // when no two progress lines with other values follow (a skipped fp16 step recovers).
       // (Written as plain sequences of sets, which the extractor matches without RE2 at every
       // "loss" of every iteration line, one pattern for nan and inf in any case; a separator must
       // follow: not "loss inference".)
       R"(loss[:=]?\s*[-+]?[nNiI][aAnN][nNfF][\s,;|'":\])}])",
       R"(Loss[:=]?\s*[-+]?[nNiI][aAnN][nNfF][\s,;|'":\])}])",
       R"(loss': '?[-+]?[nNiI][aAnN][nNfF][\s,;|'":\])}])",
       // HF Trainer replaces a NaN loss before logging it (logging_nan_inf_filter), so the grad
       // norm shows it: "'grad_norm': nan" (hiyouga/LlamaFactory#5660).
       // Megatron's "grad norm: nan" alone is not read as a divergence: a skipped fp16 iteration
       // prints it, and so do the STRONGHOLD artifact's benchmark runs (seed 002, whose iteration
       // times are the paper's Fig. 8b) while they go on; its own checks above say it.
       R"('grad_norm': '?(?:nan|inf))"});
}

}  // namespace aerun::detail
