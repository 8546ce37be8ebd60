#include "aerun/run/owned_log.hpp"

#include <filesystem>

namespace aerun {

bool aerun_wrote_log(const std::string& log_path, const std::string& log_state,
                     const std::string& logs_dir) {
  namespace fs = std::filesystem;
  if (log_path.empty() || log_state == kForeignLog || logs_dir.empty()) return false;
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(log_path, ec))) return false;
  const fs::path file = fs::weakly_canonical(fs::absolute(log_path, ec), ec);
  if (ec) return false;
  const fs::path dir = fs::weakly_canonical(fs::absolute(logs_dir, ec), ec);
  if (ec) return false;
  const fs::path rel = file.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != ".." && *rel.begin() != ".";
}

}  // namespace aerun
