// What reaches a terminal: text, never a control sequence from a log, a file name or a store.
#pragma once

#include <memory>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace aerun {

// s as a terminal shows it as text: newline and tab kept; every other C0 control character
// (escape, carriage return, backspace, bell, ...) and DEL as \xNN; bytes that are not UTF-8 as
// \xNN; the C1 controls U+0080-U+009F (8-bit CSI and OSC) and the bidirectional overrides
// (U+202A-U+202E, U+2066-U+2069: text shown in another order than it is) as \u{XXXX}.
std::string terminal_text(std::string_view s);

// A stream buffer that passes everything written to it through terminal_text on its way to
// another buffer, a UTF-8 sequence cut between two writes kept until its end arrives. main()
// puts one in front of std::cout and std::cerr when they are terminals, so no caller can forget
// it; aerun's own control sequences (the progress line, watch's refresh) go by terminal_control.
class TerminalFilter : public std::streambuf {
 public:
  explicit TerminalFilter(std::streambuf* to) : to_(to) {}
  ~TerminalFilter() override;
  TerminalFilter(const TerminalFilter&) = delete;
  TerminalFilter& operator=(const TerminalFilter&) = delete;
  // Writes seq as it is (a control sequence aerun means).
  void raw(std::string_view seq);

 protected:
  int overflow(int c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void put_locked(std::string_view s, bool at_end);
  std::mutex mutex_;  // threads write to std::cerr at once
  std::streambuf* to_;
  std::string held_;  // the start of a UTF-8 sequence whose end has not come yet
};

// Writes aerun's own control sequence (e.g. "\r\033[K") to os, past a TerminalFilter if os has
// one; to any other stream as it is.
void terminal_control(std::ostream& os, std::string_view seq);

// While alive, std::cerr goes through a TerminalFilter (it carries messages, never data: an error
// quoting a value, a progress line naming a parameter are read by a person, through a pipe too),
// and std::cout when it is a terminal (isatty) or when text_stdout() says its output is text for
// a person; the buffers before are put back at the end.
class TerminalGuard {
 public:
  TerminalGuard();
  // std::cout through a TerminalFilter from now on, a terminal or not (a command's text output,
  // not a data format whose bytes are the values: CSV, JSON, a shell script).
  void text_stdout();
  ~TerminalGuard();
  TerminalGuard(const TerminalGuard&) = delete;
  TerminalGuard& operator=(const TerminalGuard&) = delete;

 private:
  std::streambuf* out_ = nullptr;
  std::streambuf* err_ = nullptr;
  std::unique_ptr<TerminalFilter> out_filter_, err_filter_;
};

}  // namespace aerun
