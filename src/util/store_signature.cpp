#include "aerun/util/store_signature.hpp"

#include <fstream>
#include <string_view>

namespace aerun {

bool is_aerun_store_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  // The schema (sqlite_master) is in the first pages: 1 MiB holds it.
  std::string head(1 << 20, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head.starts_with(std::string_view("SQLite format 3\0", 16)) &&
         head.find("CREATE TABLE schema_migrations") != std::string::npos;
}

}  // namespace aerun
