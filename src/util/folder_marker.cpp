#include "aerun/util/folder_marker.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "aerun/util/created_file.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

std::string folder_marker_text(const std::string& dir, const std::string& first_line) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "";
  return fmt::format("{}\nfolder: {}\nid: {}:{}\n", first_line,
                     std::filesystem::absolute(dir).lexically_normal().string(),
                     static_cast<unsigned long long>(st.st_dev),
                     static_cast<unsigned long long>(st.st_ino));
}

void write_folder_marker(const std::string& dir, const std::string& name,
                         const std::string& first_line) {
  const std::string text = folder_marker_text(dir, first_line);
  if (text.empty()) throw SystemError("cannot mark " + dir + ": not a folder");
  write_created_file((std::filesystem::path(dir) / name).string(), text, "folder marker");
}

bool holds_folder_marker(const std::string& dir, const std::string& name,
                         const std::string& first_line) {
  const std::string want = folder_marker_text(dir, first_line);
  if (want.empty()) return false;
  const std::string marker = (std::filesystem::path(dir) / name).string();
  struct stat st {};  // a regular file of the right size only: a FIFO there is never opened
  if (::lstat(marker.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<size_t>(st.st_size) != want.size())
    return false;
  std::ifstream in(marker, std::ios::binary);
  std::string have(want.size(), '\0');
  in.read(have.data(), static_cast<std::streamsize>(have.size()));
  return in.gcount() == static_cast<std::streamsize>(want.size()) && have == want;
}

}  // namespace aerun
