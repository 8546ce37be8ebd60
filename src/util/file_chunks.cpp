#include "aerun/util/file_chunks.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "aerun/util/error.hpp"
#include "aerun/util/unique_fd.hpp"

namespace aerun {

namespace {

struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};

// The buffer: 2 MiB, 2 MiB-aligned, so that one huge page can back it.
std::unique_ptr<char, FreeDeleter> chunk_buffer() {
  constexpr size_t kAlign = 2u << 20;
  std::unique_ptr<char, FreeDeleter> p(static_cast<char*>(std::aligned_alloc(kAlign, kAlign)));
  if (!p) throw std::bad_alloc();
  ::madvise(p.get(), kAlign, MADV_HUGEPAGE);
  return p;
}

}  // namespace

long long for_each_chunk(const std::string& path,
                         const std::function<void(std::string_view chunk)>& fn) {
  return for_each_chunk(path, 0, LLONG_MAX, fn);
}

long long for_each_chunk(const std::string& path, long long offset, long long length,
                         const std::function<void(std::string_view chunk)>& fn) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw SystemError("cannot read " + path + ": " + std::strerror(errno));
  ::posix_fadvise(fd.get(), offset, 0, POSIX_FADV_SEQUENTIAL);
  if (offset != 0 && ::lseek(fd.get(), offset, SEEK_SET) < 0)
    throw SystemError("cannot read " + path + ": " + std::strerror(errno));
  constexpr long long kChunk = 1 << 20;
  const auto buf = chunk_buffer();
  long long done = 0;
  while (done < length) {
    const ssize_t n =
        ::read(fd.get(), buf.get(), static_cast<size_t>(std::min(kChunk, length - done)));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SystemError("error reading " + path + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    fn(std::string_view(buf.get(), static_cast<size_t>(n)));
    done += n;
  }
  return done;
}

long long next_line_start(const std::string& path, long long from, long long size) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw SystemError("cannot read " + path + ": " + std::strerror(errno));
  char buf[65536];
  for (long long pos = from; pos < size;) {
    const ssize_t n = ::pread(
        fd.get(), buf, static_cast<size_t>(std::min<long long>(sizeof buf, size - pos)), pos);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SystemError("error reading " + path + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    if (const void* nl = std::memchr(buf, '\n', static_cast<size_t>(n)))
      return pos + (static_cast<const char*>(nl) - buf) + 1;
    pos += n;
  }
  return size;
}

}  // namespace aerun
