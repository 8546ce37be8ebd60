// A live progress line for long commands (ingest, collect, table): drawn on stderr only when it
// is a terminal, only once the work has lasted $AERUN_PROGRESS_AFTER seconds (default 0.5: quick
// commands print nothing), redrawn at most 10 times a second and erased at the end. A text shown
// during a long blocking step (reading a large store) appears once the delay has passed: a
// ticker thread draws it. Other output written through stream() erases the line first, so event
// lines never mix with it.
#pragma once

#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <thread>

namespace aerun::cli {

class ProgressLine {
 public:
  explicit ProgressLine(std::ostream& out);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool enabled() const { return enabled_; }
  // Shows text (throttled: a call within 0.1 s of the last drawing is skipped unless forced).
  void show(const std::string& text, bool force = false);
  // Erases the line (it is drawn again by the next show()).
  void clear();
  // Where event lines go: the same stream, with the progress line erased before them.
  std::ostream& stream() { return stream_; }

 private:
  // Forwards to the real stream, erasing the progress line before the first character.
  class ClearingBuf : public std::streambuf {
   public:
    explicit ClearingBuf(ProgressLine& owner) : owner_(owner) {}

   protected:
    int overflow(int c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

   private:
    ProgressLine& owner_;
  };

  void draw_locked(double now);  // draws pending_ (mutex_ held)
  void clear_locked();

  std::ostream& out_;
  bool enabled_;
  double started_;
  double after_s_ = 0.5;
  double last_drawn_ = -1;
  bool shown_ = false;
  std::string pending_;    // the latest text, drawn or not
  bool drawn_ = true;      // pending_ is on the screen (or there is nothing to draw)
  bool mid_line_ = false;  // stream() has written part of a line
  std::mutex mutex_;
  ClearingBuf buf_;
  std::ostream stream_;
  std::jthread ticker_;  // last: stopped and joined first
};

}  // namespace aerun::cli
