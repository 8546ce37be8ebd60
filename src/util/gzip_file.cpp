#include "aerun/util/gzip_file.hpp"

#include <sys/stat.h>

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "aerun/util/created_file.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

namespace {

struct GzClose {
  void operator()(gzFile f) const {
    if (f) gzclose(f);
  }
};
struct FileClose {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

}  // namespace

std::string gzip_file(const std::string& path) {
  const std::string gz = path + ".gz";
  const std::string tmp = gz + ".tmp";
  long long written = 0;
  {
    std::unique_ptr<std::FILE, FileClose> in(std::fopen(path.c_str(), "rb"));
    if (!in) throw SystemError("cannot read " + path + ": " + std::strerror(errno));
    UniqueFd tmp_fd = create_file(tmp);  // never through a link put at the .tmp path
    // The copy is as private as the original: a log of mode 600 never becomes a .gz of 644.
    struct stat st {};
    if (::fstat(::fileno(in.get()), &st) == 0 && ::fchmod(tmp_fd.get(), st.st_mode & 0777) != 0)
      throw SystemError("cannot set the mode of " + tmp + ": " + std::strerror(errno));
    gzFile raw = gzdopen(tmp_fd.get(), "wb6");
    if (!raw) throw SystemError("cannot write " + tmp);
    tmp_fd.release();  // gzclose closes it
    std::unique_ptr<gzFile_s, GzClose> out(raw);
    std::vector<char> buf(1 << 20);
    while (size_t n = std::fread(buf.data(), 1, buf.size(), in.get())) {
      if (gzwrite(out.get(), buf.data(), static_cast<unsigned>(n)) != static_cast<int>(n)) {
        std::filesystem::remove(tmp);
        throw SystemError("cannot write " + tmp + " (disk full?)");
      }
      written += static_cast<long long>(n);
    }
    if (gzclose(out.release()) != Z_OK) {
      std::filesystem::remove(tmp);
      throw SystemError("cannot finish " + tmp);
    }
  }
  // Read it back: the same number of bytes must come out.
  long long back = 0;
  {
    gzFile raw = gzopen(tmp.c_str(), "rb");
    std::unique_ptr<gzFile_s, GzClose> in(raw);
    std::vector<char> buf(1 << 20);
    int n = 0;
    while (in && (n = gzread(in.get(), buf.data(), static_cast<unsigned>(buf.size()))) > 0)
      back += n;
    if (!in || n < 0 || back != written) {
      std::filesystem::remove(tmp);
      throw SystemError("the compressed copy of " + path + " does not read back");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, gz, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw SystemError("cannot rename " + tmp + ": " + ec.message());
  }
  return gz;
}

}  // namespace aerun
