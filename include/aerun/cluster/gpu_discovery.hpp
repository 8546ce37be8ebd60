// How many GPUs (or GPU tiles: ranks) each host has, and where that number came from.
#pragma once

#include <optional>
#include <string>

#include "aerun/cluster/system_probe.hpp"

namespace aerun {

// The GPU count of a host and its source, e.g. {4, "nvidia-smi"}; {0, "none"} when nothing
// reported a GPU.
struct GpuCount {
  int per_host = 0;
  std::string source = "none";  // explicit | nvidia-smi | rocm-smi | amd-smi | xpu-smi |
                                // aurora | SLURM_GPUS_ON_NODE | SLURM_GPUS_PER_NODE |
                                // CUDA_VISIBLE_DEVICES | ROCR_VISIBLE_DEVICES |
                                // ZE_AFFINITY_MASK | none
};

// Asks, in this order, and takes the first that answers with at least one GPU:
//  1. `explicit_count` (the case's or the command line's value; 0 is a valid answer here);
//  2. `nvidia-smi -L` (lines "GPU n: ...");
//  3. `rocm-smi --showid` (distinct "GPU[n]"), then `amd-smi list` ("GPU: n");
//  4. `xpu-smi discovery` (device rows; a Max 1550 has 2 tiles, each its own device unless
//     ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE);
//  5. the job's scheduler (allocation_reader.hpp, in their order): SLURM_GPUS_ON_NODE,
//     SLURM_GPUS_PER_NODE ("4" or "a100:4"); Aurora (PBS_JOBID on an aurora server: 6 GPUs x 2
//     tiles = 12);
//  6. CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES, ZE_AFFINITY_MASK (entries of the list).
// A tool that is missing, fails or prints nothing usable falls through to the next step.
GpuCount discover_gpus(std::optional<int> explicit_count, const EnvLookup& env,
                       const ToolRunner& tools);

// The parsers behind steps 2-4, on a tool's output (0 when it lists no GPU).
int count_nvidia_smi(const std::string& out);
int count_rocm_smi(const std::string& out);
int count_amd_smi(const std::string& out);
int count_xpu_smi(const std::string& out, bool flat_hierarchy);

}  // namespace aerun
