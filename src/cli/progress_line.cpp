#include "cli/progress_line.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "aerun/run/provenance.hpp"
#include "aerun/util/shell_quote.hpp"
#include "aerun/util/terminal_text.hpp"

namespace aerun::cli {

ProgressLine::ProgressLine(std::ostream& out)
    : out_(out),
      enabled_(&out == &std::cerr && ::isatty(STDERR_FILENO)),
      started_(mono_now()),
      buf_(*this),
      stream_(&buf_) {
  if (const char* e = std::getenv("AERUN_PROGRESS_AFTER"); e && *e) {
    char* end = nullptr;
    const double v = std::strtod(e, &end);
    if (end && *end == '\0' && v >= 0) after_s_ = v;
  }
  if (!enabled_) return;
  // Draws a text that waits (shown before the delay passed, or within 0.1 s of the last
  // drawing) while the caller is busy.
  ticker_ = std::jthread([this](std::stop_token stop) {
    while (!stop.stop_requested()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::lock_guard lock(mutex_);
      const double now = mono_now();
      if (!drawn_ && now - started_ >= after_s_) draw_locked(now);
    }
  });
}

ProgressLine::~ProgressLine() {
  if (ticker_.joinable()) {
    ticker_.request_stop();
    ticker_.join();
  }
  clear();
  out_.flush();
}

void ProgressLine::show(const std::string& text, bool force) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  pending_ = text;
  drawn_ = false;
  const double now = mono_now();
  if (now - started_ < after_s_) return;
  if (!force && last_drawn_ >= 0 && now - last_drawn_ < 0.1) return;
  draw_locked(now);
}

void ProgressLine::draw_locked(double now) {
  if (mid_line_) return;  // an event line is half written: after its end
  last_drawn_ = now;
  terminal_control(out_, "\r\033[K");
  out_ << printable(pending_) << std::flush;
  shown_ = true;
  drawn_ = true;
}

void ProgressLine::clear() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  pending_.clear();
  drawn_ = true;
  clear_locked();
}

void ProgressLine::clear_locked() {
  if (!shown_) return;
  terminal_control(out_, "\r\033[K");
  out_.flush();
  shown_ = false;
}

int ProgressLine::ClearingBuf::overflow(int c) {
  std::lock_guard lock(owner_.mutex_);
  owner_.clear_locked();
  if (!owner_.pending_.empty()) owner_.drawn_ = false;  // drawn again after the event line
  if (c != traits_type::eof()) {
    owner_.out_.put(static_cast<char>(c));
    owner_.mid_line_ = c != '\n';
  }
  return c == traits_type::eof() ? 0 : c;
}

std::streamsize ProgressLine::ClearingBuf::xsputn(const char* s, std::streamsize n) {
  std::lock_guard lock(owner_.mutex_);
  owner_.clear_locked();
  if (!owner_.pending_.empty()) owner_.drawn_ = false;
  owner_.out_.write(s, n);
  if (n > 0) owner_.mid_line_ = s[n - 1] != '\n';
  return n;
}

int ProgressLine::ClearingBuf::sync() {
  owner_.out_.flush();
  return 0;
}

}  // namespace aerun::cli
