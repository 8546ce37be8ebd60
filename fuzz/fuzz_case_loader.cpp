// Fuzz target: the case loader. Any text is either a case or an InputError naming where; a case
// that loads has a version and, when small, a sweep whose points all expand.
#include <cstddef>
#include <cstdint>
#include <string>

#include "aerun/case/case_loader.hpp"
#include "aerun/sweep/sweep.hpp"
#include "aerun/util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const aerun::CaseSpec spec = aerun::parse_case(text, "fuzz.yaml", "/nonexistent");
    (void)aerun::case_version(spec);
    const aerun::Sweep sweep(spec);
    if (sweep.max_points() <= 10'000) {
      int n = 0;
      sweep.for_each([&](const aerun::ParamList& p) {
        if (p.size() != sweep.names().size()) __builtin_trap();
        return ++n < 100;
      });
    }
  } catch (const aerun::InputError& e) {
    if (std::string(e.what()).empty()) __builtin_trap();  // every refusal says why
  }
  return 0;
}
