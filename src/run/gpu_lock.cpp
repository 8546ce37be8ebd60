#include "run/gpu_lock.hpp"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cstdlib>

#include "aerun/util/error.hpp"

namespace aerun {

std::string GpuLock::default_path() {
  const char* dir = std::getenv("AERUN_LOCK_DIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/aerun-gpu.lock";
}

bool GpuLock::acquire(const std::string& path, const std::string& who,
                      const std::function<void(const std::string&)>& waiting) {
  release();
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) throw SystemError(fmt::format("cannot open GPU lock {}: {}", path, strerror(errno)));
  fchmod(fd_, 0666);
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) throw SystemError(fmt::format("flock {}: {}", path, strerror(errno)));
    // The holder writes who it is just after taking the lock (and clears it just before letting
    // go): an empty file is read again for up to 0.2 s, or until the lock is free.
    char buf[512] = {};
    ssize_t n = 0;
    bool got = false;
    for (int tries = 0; tries < 40; ++tries) {
      n = pread(fd_, buf, sizeof buf - 1, 0);
      if (n > 0) break;
      usleep(5000);
      if (flock(fd_, LOCK_EX | LOCK_NB) == 0) {
        got = true;
        break;
      }
    }
    std::string holder = n > 0 ? std::string(buf, n) : std::string("another process");
    while (!holder.empty() && holder.back() == '\n') holder.pop_back();
    if (!got && waiting) waiting(holder);
    if (!got && flock(fd_, LOCK_EX) != 0) {
      const int e = errno;
      close(fd_);
      fd_ = -1;
      if (e == EINTR) return false;
      throw SystemError(fmt::format("flock {}: {}", path, strerror(e)));
    }
  }
  const std::string me = who + "\n";
  if (ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] ssize_t w = pwrite(fd_, me.data(), me.size(), 0);
  }
  return true;
}

void GpuLock::release() {
  if (fd_ >= 0) {
    [[maybe_unused]] int r = ftruncate(fd_, 0);
    flock(fd_, LOCK_UN);
    close(fd_);
  }
  fd_ = -1;
}

}  // namespace aerun
