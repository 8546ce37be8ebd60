#include "aerun/run/owned_log.hpp"

#include <filesystem>

namespace aerun {

bool aerun_wrote_log(const std::string& log_path, const std::string& log_state,
                     const std::string& logs_dir) {
  namespace fs = std::filesystem;
  if (log_path.empty() || log_state == kForeignLog || logs_dir.empty()) return false;
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(log_path, ec))) return false;
  // A file other names link to was put there (a hard link to a private file): compressing it
  // would copy its bytes into a .gz anyone may read (issue 40). aerun's logs have one name.
  if (fs::hard_link_count(log_path, ec) != 1 || ec) return false;
  const fs::path file = fs::weakly_canonical(fs::absolute(log_path, ec), ec);
  if (ec) return false;
  const fs::path dir = fs::weakly_canonical(fs::absolute(logs_dir, ec), ec);
  if (ec) return false;
  const fs::path rel = file.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != ".." && *rel.begin() != ".";
}

}  // namespace aerun
