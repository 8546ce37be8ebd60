#include "aerun/util/file_chunks.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
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
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw SystemError("cannot read " + path + ": " + std::strerror(errno));
  ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  constexpr size_t kChunk = 1u << 20;
  const auto buf = chunk_buffer();
  long long size = 0;
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf.get(), kChunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SystemError("error reading " + path + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    fn(std::string_view(buf.get(), static_cast<size_t>(n)));
    size += n;
  }
  return size;
}

}  // namespace aerun
