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
  if (const char* dir = std::getenv("AERUN_LOCK_DIR"); dir && *dir)
    return std::string(dir) + "/aerun-gpu.lock";
  // A folder of the user's own, never a name in the shared /tmp that anyone can plant a link at
  // (issue 40): $XDG_RUNTIME_DIR (systemd's /run/user/UID, mode 0700) when it is the user's, else
  // /tmp/aerun-UID, made 0700 and checked to be the user's real folder.
  const uid_t uid = ::getuid();
  struct stat st {};
  if (const char* run = std::getenv("XDG_RUNTIME_DIR"); run && *run && ::lstat(run, &st) == 0 &&
                                                        S_ISDIR(st.st_mode) && st.st_uid == uid &&
                                                        (st.st_mode & 077) == 0)
    return std::string(run) + "/aerun-gpu.lock";
  const std::string dir = fmt::format("/tmp/aerun-{}", uid);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw SystemError(fmt::format("cannot create {}: {}", dir, strerror(errno)));
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != uid ||
      (st.st_mode & 022) != 0)
    throw SystemError(fmt::format(
        "{} is not a folder of this user's alone (a link, another user's, or writable by others): "
        "aerun keeps its GPU lock there; remove it, or set AERUN_LOCK_DIR to a folder of yours",
        dir));
  return dir + "/aerun-gpu.lock";
}

bool GpuLock::acquire(const std::string& path, const std::string& who,
                      const std::function<void(const std::string&)>& waiting) {
  release();
  // Never through a link put at its path (O_NOFOLLOW). In a folder shared on purpose
  // (AERUN_LOCK_DIR) another user's lock file is opened to read: flock needs no more.
  const int flags = O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
  fd_ = open(path.c_str(), O_RDWR | flags, 0644);
  if (fd_ < 0 && errno == EACCES) fd_ = open(path.c_str(), O_RDONLY | flags, 0644);
  if (fd_ < 0)
    throw SystemError(
        fmt::format("cannot open GPU lock {}: {}", path,
                    errno == ELOOP ? "it is a link (not followed)" : strerror(errno)));
  struct stat st {};
  if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd_);
    fd_ = -1;
    throw SystemError(fmt::format("cannot open GPU lock {}: not a regular file", path));
  }
  // A file other names link to (a hard link put at the lock's path) is someone's file: the lock
  // writes (and empties) it, so it is refused, never truncated (issue 40).
  if (st.st_nlink > 1) {
    close(fd_);
    fd_ = -1;
    throw SystemError(fmt::format(
        "cannot use GPU lock {}: other names link to that file (a hard link put there); remove "
        "{} and run again",
        path, path));
  }
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
