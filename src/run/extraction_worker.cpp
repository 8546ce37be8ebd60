#include "run/extraction_worker.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "aerun/util/error.hpp"

namespace aerun {

ExtractionWorker::ExtractionWorker(std::unique_ptr<Extractor> ex)
    : ex_(std::move(ex)),
      wake_fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)),
      thread_([this](std::stop_token stop) { run(stop); }) {
  if (wake_fd_.get() < 0) throw SystemError(std::string("eventfd: ") + std::strerror(errno));
}

void ExtractionWorker::drain_wake() {
  std::uint64_t n = 0;
  [[maybe_unused]] const ssize_t r = ::read(wake_fd_.get(), &n, sizeof n);
}

ExtractionWorker::~ExtractionWorker() {
  thread_.request_stop();
  wake_.notify_all();
}

void ExtractionWorker::push(std::string_view chunk, double wall, double mono) {
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
    const bool seen = ex_->startup_seen();
    const long long lines = ex_->progress_lines();
    ex_->feed(c.bytes);
    Progress p;
    p.startup_seen = ex_->startup_seen();
    p.progress_lines = ex_->progress_lines();
    const bool moved = p.progress_lines != lines;
    if (moved) {
      p.last_progress_text = ex_->last_progress_text();
      p.last_progress_line = ex_->last_progress_line();
    }
    p.counter = ex_->counter();
    lock.lock();
    queued_bytes_ -= c.bytes.size();
    extracting_ = false;
    if (!seen && p.startup_seen) progress_.startup_time = c.wall;
    progress_.startup_seen = p.startup_seen;
    if (moved) {
      progress_.progress_lines = p.progress_lines;
      progress_.last_progress_mono = c.mono;
      progress_.last_progress_text = std::move(p.last_progress_text);
      progress_.last_progress_line = p.last_progress_line;
    }
    progress_.counter = p.counter;
    if (queue_.empty()) drained_.notify_all();
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t w = ::write(wake_fd_.get(), &one, sizeof one);
  }
}

Extractor& ExtractionWorker::finish() {
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
