// Counting a host's GPUs from vendor tools, the scheduler and visible-device variables.
#include "aerun/cluster/gpu_discovery.hpp"
#include "cluster/allocation_readers.hpp"

#include <re2/re2.h>

#include <set>
#include <sstream>

namespace aerun {

namespace {

template <class F>
int count_lines(const std::string& out, F&& matches) {
  std::istringstream in(out);
  std::string line;
  int n = 0;
  while (std::getline(in, line))
    if (matches(line)) ++n;
  return n;
}

// Entries of a device list ("0,1,2,3", "0.0,0.1"); "" and "-1" (CUDA's "none") count 0.
int list_entries(const std::string& v) {
  if (v.empty() || v == "-1" || v == "NoDevFiles") return 0;
  int n = 0;
  std::istringstream in(v);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) ++n;
  return n;
}

bool flat_hierarchy(const EnvLookup& env) {
  const auto h = env("ZE_FLAT_DEVICE_HIERARCHY");
  return !h || *h != "COMPOSITE";
}

}  // namespace

int positive_count(const std::string& text) {
  const std::string digits =
      text.substr(text.rfind(':') == std::string::npos ? 0 : text.rfind(':') + 1);
  if (digits.empty() || digits.size() > 6) return 0;
  for (char c : digits)
    if (c < '0' || c > '9') return 0;
  return std::stoi(digits);
}

int count_nvidia_smi(const std::string& out) {
  static const RE2 gpu(R"(^GPU \d+: )");
  return count_lines(out, [](const std::string& l) { return RE2::PartialMatch(l, gpu); });
}

int count_rocm_smi(const std::string& out) {
  static const RE2 gpu(R"(^\s*GPU\[(\d+)\])");
  std::set<std::string> ids;
  std::istringstream in(out);
  std::string line, id;
  while (std::getline(in, line))
    if (RE2::PartialMatch(line, gpu, &id)) ids.insert(id);
  return static_cast<int>(ids.size());
}

int count_amd_smi(const std::string& out) {
  static const RE2 gpu(R"(^GPU: \d+\s*$)");
  return count_lines(out, [](const std::string& l) { return RE2::PartialMatch(l, gpu); });
}

int count_xpu_smi(const std::string& out, bool flat) {
  // Device rows: "| 0         | Device Name: Intel(R) Data Center GPU Max 1550   |"
  static const RE2 row(R"(^\|\s*\d+\s*\|\s*Device Name:\s*(.*?)\s*\|?\s*$)");
  std::istringstream in(out);
  std::string line, name;
  int n = 0;
  while (std::getline(in, line))
    if (RE2::FullMatch(line, row, &name))
      n += flat && name.find("Max 1550") != std::string::npos ? 2 : 1;  // 2 tiles
  return n;
}

GpuCount discover_gpus(std::optional<int> explicit_count, const EnvLookup& env,
                       const ToolRunner& tools) {
  if (explicit_count) return {*explicit_count, "explicit"};
  struct Tool {
    std::vector<std::string> argv;
    int (*count)(const std::string&);
  };
  const Tool vendor_tools[] = {{{"nvidia-smi", "-L"}, count_nvidia_smi},
                               {{"rocm-smi", "--showid"}, count_rocm_smi},
                               {{"amd-smi", "list"}, count_amd_smi}};
  for (const auto& t : vendor_tools)
    if (const auto out = tools(t.argv))
      if (const int n = t.count(*out); n > 0) return {n, t.argv[0]};
  const bool flat = flat_hierarchy(env);
  if (const auto out = tools({"xpu-smi", "discovery"}))
    if (const int n = count_xpu_smi(*out, flat); n > 0) return {n, "xpu-smi"};
  for (const AllocationReader* job : allocation_readers())
    if (const auto g = job->gpus_per_node(env, flat)) return {g->per_node, g->source};
  for (const char* var : {"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK"})
    if (const auto v = env(var))
      if (const int n = list_entries(*v); n > 0) return {n, var};
  return {0, "none"};
}

}  // namespace aerun
