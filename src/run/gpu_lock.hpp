// A host-wide lock for `exclusive: gpu` runs, so two users or two cases never share one GPU.
#pragma once

#include <functional>
#include <string>

namespace aerun {

class GpuLock {
 public:
  // The lock file: $AERUN_LOCK_DIR/aerun-gpu.lock (default /tmp), world-writable so that every
  // user of the host shares it.
  static std::string default_path();
  // Blocks until the lock is held. When someone else holds it, calls waiting(holder) once first,
  // where holder describes them ("pid 123, case fig7a, user alice"). Throws SystemError on I/O
  // errors; returns false if interrupted (EINTR) before the lock was taken.
  bool acquire(const std::string& path, const std::string& who,
               const std::function<void(const std::string&)>& waiting);
  void release();
  ~GpuLock() { release(); }

 private:
  int fd_ = -1;
};

}  // namespace aerun
