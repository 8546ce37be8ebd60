// Fuzz target: Slurm host lists and per-node task counts. Either names (never more than
// kMaxHosts, none empty) or an InputError; an expanded list of plain names expands to itself.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "aerun/util/error.hpp"
#include "cluster/slurm_hostlist.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // ranges multiply: keep each input's output small
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    // 64 Ki names at most per input (the 4 Mi default is a unit test's): under ASan millions of
    // names take longer than the fuzzer's 10 s hang limit.
    constexpr size_t kFuzzMaxHosts = 64u << 10;
    const auto hosts = aerun::expand_hostlist(text, kFuzzMaxHosts);
    if (hosts.size() > kFuzzMaxHosts) __builtin_trap();
    // Names without brackets, commas or spaces, joined by commas, are a list of themselves.
    std::string joined;
    bool plain = hosts.size() <= 4096;
    for (const auto& h : hosts) {
      if (h.empty()) __builtin_trap();
      if (h.find_first_of("[], \t\n\r\f\v") != std::string::npos) plain = false;
      if (!plain) break;
      joined += (joined.empty() ? "" : ",") + h;
    }
    if (plain && !hosts.empty() && aerun::expand_hostlist(joined) != hosts) __builtin_trap();
  } catch (const aerun::InputError&) {
  }
  try {
    for (int n : aerun::expand_tasks_per_node(text))
      if (n < 0) __builtin_trap();
  } catch (const aerun::InputError&) {
  }
  return 0;
}
