// The `stronghold` preset: the lines STRONGHOLD's Megatron fork adds (effective TFLOPS, the
// NumWorkers/SamplesPerSecond line, the offloading time breakdown).
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset stronghold_v1() {
  Preset p;
  p.name = "stronghold";
  p.version = 1;
  p.headline = {"sh_iter_ms", "sh_samples_per_s", "effective_tflops_per_gpu", "total_params_b"};
  p.summary = "STRONGHOLD: effective TFLOPS, samples per second, offloading breakdown";
  const std::string& num = kNumber;
  add_metrics(
      p, {
             {"effective_tflops_per_gpu", R"(Effective Tera Flops per GPU: )" + num,
              Reduction::Mean, "TFLOP/s"},
             {"total_params_b", R"(and total parameters )" + num + " B", Reduction::Last,
              "billion parameters"},
             {"sh_workers", R"(NumWorkers: (\d+);)", Reduction::Last, "", 1, {}, true},
             {"sh_samples_per_step", R"(; SamplesPerStep: (\d+);)", Reduction::Last, "samples"},
             {"sh_iter_ms", R"(; IterationTime: )" + num + ";", Reduction::Mean, "ms", 1000},
             {"sh_samples_per_s", R"(;\s+SamplesPerSecond: )" + num, Reduction::Mean, "samples/s"},
             {"sh_e2e_ms", R"(\| e2e-time: )" + num, Reduction::Mean, "ms"},
             {"sh_forward_compute_ms", R"(\| forward-compute: )" + num, Reduction::Mean, "ms"},
             {"sh_backward_compute_ms", R"(\| backward-compute: )" + num, Reduction::Mean, "ms"},
             {"sh_offload_call_ms", R"(\| offloading-func-call-overhead: )" + num, Reduction::Mean,
              "ms"},
             {"sh_offload_fwd_ms", R"(\| offloading-fwd-overhead: )" + num, Reduction::Mean, "ms"},
             {"sh_offload_bwd_ms", R"(\| offloading-bwd-overhead: )" + num, Reduction::Mean, "ms"},
             {"sh_offload_fwd_2gpu_ms", R"(\| offloading-fwd-2gpu-overhead: )" + num,
              Reduction::Mean, "ms"},
             {"sh_offload_fwd_2cpu_ms", R"(\| offloading-fwd-2cpu-overhead: )" + num,
              Reduction::Mean, "ms"},
             {"sh_offload_bwd_2gpu_ms", R"(\| offloading-bwd-2gpu-overhead: )" + num,
              Reduction::Mean, "ms"},
             {"sh_offload_bwd_2cpu_ms", R"(\| offloading-bwd-2cpu-overhead: )" + num,
              Reduction::Mean, "ms"},
         });
  // Signatures: STRONGHOLD is a Megatron-LM fork (its argument dump and banners, seed 002).
  p.completion.signatures = megatron_v1().completion.signatures;
  return p;
}

}  // namespace aerun::detail
