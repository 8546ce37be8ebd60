// Aurora's explicit CPU binding list (ALCF's recommended --cpu-bind list:... form).
#include <fmt/format.h>

#include "launch/dialect_parts.hpp"

namespace aerun {

std::string aurora_cpu_bind_list(int ranks_per_node) {
  constexpr int kCoresPerSocket = 52;  // 2 x Xeon Max 9470; core 0 of each socket is the OS's
  if (ranks_per_node < 2 || ranks_per_node % 2 != 0 || ranks_per_node > 2 * (kCoresPerSocket - 1))
    throw InputError(SourceLoc{}, "launcher",
                     fmt::format("cpu_bind 'aurora' needs an even number of ranks per node (2 to "
                                 "{}), not {}",
                                 2 * (kCoresPerSocket - 1), ranks_per_node));
  const int per_socket = ranks_per_node / 2;
  const int width = (kCoresPerSocket - 1) / per_socket;
  std::string out = "list";
  for (int socket = 0; socket < 2; ++socket)
    for (int r = 0; r < per_socket; ++r) {
      const int first = socket * kCoresPerSocket + 1 + r * width;
      out += fmt::format(":{}-{}", first, first + width - 1);
    }
  return out;
}

}  // namespace aerun
