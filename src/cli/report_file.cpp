#include "cli/report_file.hpp"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "aerun/util/atomic_file.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun::cli {

namespace {

namespace fs = std::filesystem;

fs::path normal(const std::string& p) {
  std::error_code ec;
  const fs::path n = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p).lexically_normal() : n;
}

bool starts_like_sqlite(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  char head[16] = {};
  return f.read(head, sizeof head) && std::memcmp(head, "SQLite format 3", 16) == 0;
}

bool inside(const fs::path& p, const fs::path& dir) {
  const auto rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != ".." && rel != ".";
}

}  // namespace

void check_report_file(const std::string& path, const std::string& option,
                       const std::string& store_path, const std::string& logs_dir) {
  auto refuse = [&](const std::string& why) {
    throw InputError(SourceLoc{}, option,
                     fmt::format("{} {}: not written; name another file", printable(path), why));
  };
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (fs::is_directory(st)) refuse("is a folder");
  if (fs::exists(st) && !fs::is_regular_file(st)) refuse("is not a regular file");
  if (fs::is_regular_file(st) && starts_like_sqlite(path))
    refuse("is an SQLite database (a store): a report never replaces one");
  const fs::path p = normal(path);
  const fs::path store = normal(store_path);
  for (const char* tail : {"", "-wal", "-shm", "-journal"})
    if (p == fs::path(store.string() + tail)) refuse("is the store " + printable(store_path));
  if (!logs_dir.empty() && (p == normal(logs_dir) || inside(p, normal(logs_dir))))
    refuse("is in the store's logs folder " + printable(logs_dir) + ", which holds only logs");
}

void write_report_file(const std::string& path, std::string_view text, const std::string& option,
                       const std::string& store_path, const std::string& logs_dir) {
  check_report_file(path, option, store_path, logs_dir);
  write_file_atomic(path, text);
}

}  // namespace aerun::cli
