// The base vocabulary's accelerator memory exhaustion beyond CUDA's (`oom`): HIP/ROCm, Intel XPU /
// Level Zero / SYCL, XLA on TPU and GPU, Habana, and NCCL's own allocation failures.
#include "aerun/judge/run_status.hpp"
#include "logread/preset_families.hpp"

namespace aerun::detail {

void add_accelerator_status(const StatusAdder& add) {
  add(run_status::oom,
      {// PyTorch's device-generic allocator: "Out of memory. Tried to allocate ..."
       // (c10/core/CachingDeviceAllocator.h).
       R"(Out of memory\. Tried to allocate )",
       // HIP: "HIP error: out of memory", hipErrorOutOfMemory (ROCm/TheRock#1054, iree#22113),
       // TensorFlow-ROCm "from device: HIP_ERROR_OutOfMemory" (keras-team/keras#13889).
       R"(HIP error: out of memory)", R"(hipErrorOutOfMemory)", R"(HIP_ERROR_OutOfMemory)",
       R"(cudaErrorMemoryAllocation)",
       // Intel: "level_zero backend failed with error: 39 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)",
       // "Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES)" (SYCL runtime, intel/llvm
       // __SYCL_UR_ERROR_REPORT / __SYCL_PI_ERROR_REPORT; intel-extension-for-pytorch#854,
       // ipex-llm#9467), oneCCL's "code: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY" (ipex#640).
       R"(UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)", R"(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)",
       R"(PI_ERROR_OUT_OF_RESOURCES)",
       // XLA (JAX, PyTorch/XLA, TPU and GPU): "XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory
       // while trying to allocate 6291456 bytes." (jax-ml/jax#13428), "RESOURCE_EXHAUSTED: Error
       // allocating device buffer: Attempting to allocate 15.65G." (gemma#85), "Ran out of memory
       // in memory space hbm" (XLA error E1000; LargeWorldModel/LWM#60), "Allocation (size=...)
       // would exceed memory" (vmem).
       R"(RESOURCE_EXHAUSTED: (?:Out of memory|Error allocating device buffer|Error loading program|Allocation \(size=))",
       R"(Ran out of memory in memory space)",
       R"(Attempting to reserve \S+ at the bottom of memory)",
       // Habana Gaudi: "FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed"
       // (mila-iqia/milabench#301).
       R"(MODULE:PT_DEVMEM Allocation failed)",
       // NCCL's own device allocation: "NCCL WARN Cuda failure 'out of memory'" (NVIDIA/nccl#1235).
       R"(NCCL WARN Cuda failure 'out of memory')"});
}

}  // namespace aerun::detail
