// No launcher: the command runs as a single process.
#include "launch/dialect_parts.hpp"

namespace aerun::detail {

std::vector<std::string> render_none(const LauncherSpec&, const ClusterInfo&, const LaunchLayout&) {
  return {};
}

}  // namespace aerun::detail
