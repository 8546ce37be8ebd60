// A run's extraction on a thread of its own: the loop that drains the command's output only
// writes the log and queues what it read, so a slow metric pattern never makes the command wait
// on a full pipe (issue 28: a 0.23 s run stored wall_s 17.9 s).
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "aerun/extract/extractor.hpp"
#include "aerun/util/unique_fd.hpp"

namespace aerun {

class ExtractionWorker {
 public:
  // Past this many bytes queued and not yet extracted the caller stops reading the pipe until
  // extraction catches up: memory stays bounded, and only then can the command be slowed.
  static constexpr size_t kMaxQueuedBytes = 256u << 20;

  // threaded = false: each chunk is extracted in push(), on the caller's thread, and there is no
  // wake fd (a fake executor's deterministic runs: executor.hpp).
  explicit ExtractionWorker(std::unique_ptr<Extractor> ex, bool threaded = true);
  ~ExtractionWorker();  // stops the thread; what is still queued is dropped
  ExtractionWorker(const ExtractionWorker&) = delete;
  ExtractionWorker& operator=(const ExtractionWorker&) = delete;

  // Queues a chunk of output read at wall time `wall`, monotonic time `mono`.
  void push(std::string_view chunk, double wall, double mono);
  // More than kMaxQueuedBytes wait.
  bool full() const;
  // Every chunk pushed has been extracted.
  bool caught_up() const;

  // What the watchdogs and the live progress read, as of the last chunk extracted; times are
  // those at which the chunk was read from the pipe, not when it was extracted.
  struct Progress {
    bool startup_seen = false;
    std::optional<double> startup_time;  // wall time
    long long progress_lines = 0;
    double last_progress_mono = 0;
    std::string last_progress_text;
    long long last_progress_line = 0;
    std::optional<std::pair<double, double>> counter;
  };
  Progress progress() const;
  // Readable after each chunk is extracted (an eventfd): the run loop polls it, so a run's
  // progress is seen as soon as it is known, not at the next output. drain_wake() empties it.
  // -1 when not threaded.
  int wake_fd() const { return wake_fd_.get(); }
  void drain_wake();

  // Waits until every chunk is extracted, stops the thread, calls Extractor::finish() and hands
  // the extractor over (the thread no longer touches it).
  Extractor& finish();

 private:
  struct Chunk {
    std::string bytes;
    double wall, mono;
  };
  void run(std::stop_token stop);
  // What feeding one chunk showed: worked out without the lock, recorded with it.
  struct Fed {
    bool startup_before = false;
    bool moved = false;  // a new progress line
    Progress now;
  };
  Fed feed(const std::string& bytes);
  void record(const Chunk& c, Fed fed);

  std::unique_ptr<Extractor> ex_;
  mutable std::mutex mutex_;
  std::condition_variable_any wake_;     // a chunk came, or stop
  std::condition_variable_any drained_;  // the queue is empty and nothing is being extracted
  std::deque<Chunk> queue_;
  size_t queued_bytes_ = 0;
  bool extracting_ = false;
  bool finished_ = false;
  bool threaded_;
  Progress progress_;
  UniqueFd wake_fd_;
  std::jthread thread_;  // declared last: started once the rest exists, stopped first
};

}  // namespace aerun
