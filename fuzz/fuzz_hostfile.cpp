// Fuzz target: hostfiles (plain, Open MPI, MPICH). Either unique hosts with at least one slot
// each or an InputError.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>

#include "aerun/cluster/hostfile.hpp"
#include "aerun/util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const aerun::Hostfile hf = aerun::parse_hostfile(text, "fuzz.hosts");
    std::set<std::string_view> seen;
    for (const auto& h : hf.hosts) {
      if (h.name.empty() || h.slots < 1) __builtin_trap();
      if (!seen.insert(h.name).second) __builtin_trap();
    }
  } catch (const aerun::InputError&) {
  }
  return 0;
}
