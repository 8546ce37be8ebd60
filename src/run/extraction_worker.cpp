#include "run/extraction_worker.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "aerun/util/error.hpp"

namespace aerun {

ExtractionWorker::ExtractionWorker(std::unique_ptr<Extractor> ex, bool threaded)
    : ex_(std::move(ex)), threaded_(threaded) {
  if (!threaded_) return;
  wake_fd_ = UniqueFd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
  if (wake_fd_.get() < 0) throw SystemError(std::string("eventfd: ") + std::strerror(errno));
  thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

void ExtractionWorker::drain_wake() {
  if (wake_fd_.get() < 0) return;
  std::uint64_t n = 0;
  [[maybe_unused]] const ssize_t r = ::read(wake_fd_.get(), &n, sizeof n);
}

ExtractionWorker::~ExtractionWorker() {
  thread_.request_stop();
  wake_.notify_all();
}

void ExtractionWorker::push(std::string_view chunk, double wall, double mono) {
  if (!threaded_) {
    Chunk c{std::string(chunk), wall, mono};
    Fed fed = feed(c.bytes);
    std::lock_guard lock(mutex_);
    record(c, std::move(fed));
    return;
  }
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::string(chunk), wall, mono});
    queued_bytes_ += chunk.size();
  }
  wake_.notify_one();
}

bool ExtractionWorker::full() const {
  std::lock_guard lock(mutex_);
  return queued_bytes_ > kMaxQueuedBytes;
}

bool ExtractionWorker::caught_up() const {
  std::lock_guard lock(mutex_);
  return queue_.empty() && !extracting_;
}

ExtractionWorker::Progress ExtractionWorker::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

void ExtractionWorker::run(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, stop, [this] { return !queue_.empty(); });
    if (stop.stop_requested()) return;
    Chunk c = std::move(queue_.front());
    queue_.pop_front();
    extracting_ = true;
    lock.unlock();
    // The extractor is this thread's alone until finish(): fed without the lock held.
    Fed fed = feed(c.bytes);
    lock.lock();
    queued_bytes_ -= c.bytes.size();
    extracting_ = false;
    record(c, std::move(fed));
    if (queue_.empty()) drained_.notify_all();
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t w = ::write(wake_fd_.get(), &one, sizeof one);
  }
}

ExtractionWorker::Fed ExtractionWorker::feed(const std::string& bytes) {
  Fed f;
  f.startup_before = ex_->startup_seen();
  const long long lines = ex_->progress_lines();
  ex_->feed(bytes);
  f.now.startup_seen = ex_->startup_seen();
  f.now.progress_lines = ex_->progress_lines();
  f.moved = f.now.progress_lines != lines;
  if (f.moved) {
    f.now.last_progress_text = ex_->last_progress_text();
    f.now.last_progress_line = ex_->last_progress_line();
  }
  f.now.counter = ex_->counter();
  return f;
}

void ExtractionWorker::record(const Chunk& c, Fed fed) {
  if (!fed.startup_before && fed.now.startup_seen) progress_.startup_time = c.wall;
  progress_.startup_seen = fed.now.startup_seen;
  if (fed.moved) {
    progress_.progress_lines = fed.now.progress_lines;
    progress_.last_progress_mono = c.mono;
    progress_.last_progress_text = std::move(fed.now.last_progress_text);
    progress_.last_progress_line = fed.now.last_progress_line;
  }
  progress_.counter = fed.now.counter;
}

Extractor& ExtractionWorker::finish() {
  if (!finished_ && !threaded_) {
    ex_->finish();
    finished_ = true;
  }
  if (!finished_) {
    {
      std::unique_lock lock(mutex_);
      drained_.wait(lock, [this] { return queue_.empty() && !extracting_; });
    }
    thread_.request_stop();
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    ex_->finish();
    finished_ = true;
  }
  return *ex_;
}

}  // namespace aerun
