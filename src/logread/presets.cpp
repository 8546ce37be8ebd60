// The preset registry: every built-in preset version, found by name.
#include "aerun/logread/presets.hpp"

#include <algorithm>

#include "logread/preset_families.hpp"

namespace aerun {

const std::vector<Preset>& builtin_presets() {
  static const std::vector<Preset> all = [] {
    std::vector<Preset> v{detail::deepspeed_v1(),  detail::ezpz_v1(),       detail::hf_trainer_v1(),
                          detail::megatron_v1(),   detail::startup_v1(),    detail::stronghold_v1(),
                          detail::hf_trainer_v2(), detail::torchtitan_v1(), detail::nanotron_v1(),
                          detail::nanogpt_v1(),    detail::lightning_v1(),  detail::nemo_v1(),
                          detail::maxtext_v1(),    detail::composer_v1(),   detail::torchtune_v1(),
                          detail::mlperf_v1(),     detail::megatron_v2()};
    std::sort(v.begin(), v.end(), [](const Preset& a, const Preset& b) {
      return a.name != b.name ? a.name < b.name : a.version < b.version;
    });
    return v;
  }();
  return all;
}

const std::vector<StatusPattern>& shared_status_patterns() {
  static const std::vector<StatusPattern> s = detail::shared_status_v1();
  return s;
}

const std::vector<std::string>& shared_restart_patterns() {
  static const std::vector<std::string> r = detail::shared_restart_v1();
  return r;
}

const Preset* find_preset(const std::string& ref) {
  const size_t at = ref.find('@');
  const std::string name = ref.substr(0, at);
  int version = 0;  // 0 = latest
  if (at != std::string::npos) {
    const std::string v = ref.substr(at + 1);
    if (v.empty() || v.size() > 6 || !std::all_of(v.begin(), v.end(), ::isdigit)) return nullptr;
    version = std::stoi(v);
  }
  const Preset* best = nullptr;
  for (const auto& p : builtin_presets())
    if (p.name == name &&
        (version == 0 ? (!best || p.version > best->version) : p.version == version))
      best = &p;
  return best;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& p : builtin_presets()) {
    const Preset* latest = find_preset(p.name);
    if (latest == &p) names.push_back(p.name + "@" + std::to_string(p.version));
  }
  return names;
}

}  // namespace aerun
