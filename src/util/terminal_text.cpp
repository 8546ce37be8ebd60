#include "aerun/util/terminal_text.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <tuple>

#include "aerun/util/utf8.hpp"

namespace aerun {

namespace {

bool hidden_code_point(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// Appends s as text to out; returns how many bytes at the end were left for the next call (the
// start of a UTF-8 sequence) when !at_end.
size_t append_text(std::string& out, std::string_view s, bool at_end) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
        out += fmt::format("\\x{:02x}", c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    char32_t cp = 0;
    const int len = utf8_length(p + i, s.size() - i, &cp);
    if (len < 0 && !at_end) return s.size() - i;
    if (len <= 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else {
      if (hidden_code_point(cp))
        out += fmt::format("\\u{{{:04X}}}", static_cast<unsigned>(cp));
      else
        out.append(s.data() + i, static_cast<size_t>(len));
      i += static_cast<size_t>(len);
    }
  }
  return 0;
}

}  // namespace

std::string terminal_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_text(out, s, true);
  return out;
}

TerminalFilter::~TerminalFilter() {
  std::lock_guard lock(mutex_);
  put_locked({}, true);
}

void TerminalFilter::put_locked(std::string_view s, bool at_end) {
  std::string in;
  if (!held_.empty()) {
    in = held_ + std::string(s);
    s = in;
    held_.clear();
  }
  std::string out;
  out.reserve(s.size());
  const size_t left = append_text(out, s, at_end);
  held_.assign(s.substr(s.size() - left));
  to_->sputn(out.data(), static_cast<std::streamsize>(out.size()));
}

void TerminalFilter::raw(std::string_view seq) {
  std::lock_guard lock(mutex_);
  put_locked({}, true);
  to_->sputn(seq.data(), static_cast<std::streamsize>(seq.size()));
}

int TerminalFilter::overflow(int c) {
  if (c == traits_type::eof()) return 0;
  const char ch = static_cast<char>(c);
  std::lock_guard lock(mutex_);
  put_locked(std::string_view(&ch, 1), false);
  return c;
}

std::streamsize TerminalFilter::xsputn(const char* s, std::streamsize n) {
  std::lock_guard lock(mutex_);
  put_locked(std::string_view(s, static_cast<size_t>(n)), false);
  return n;
}

int TerminalFilter::sync() {
  std::lock_guard lock(mutex_);
  return to_->pubsync();
}

void terminal_control(std::ostream& os, std::string_view seq) {
  if (auto* f = dynamic_cast<TerminalFilter*>(os.rdbuf())) {
    os.flush();
    f->raw(seq);
  } else {
    os.write(seq.data(), static_cast<std::streamsize>(seq.size()));
  }
}

TerminalGuard::TerminalGuard() {
  if (::isatty(STDOUT_FILENO)) {
    out_filter_ = std::make_unique<TerminalFilter>(std::cout.rdbuf());
    out_ = std::cout.rdbuf(out_filter_.get());
  }
  err_filter_ = std::make_unique<TerminalFilter>(std::cerr.rdbuf());
  err_ = std::cerr.rdbuf(err_filter_.get());
}

void TerminalGuard::text_stdout() {
  if (out_filter_) return;
  out_filter_ = std::make_unique<TerminalFilter>(std::cout.rdbuf());
  out_ = std::cout.rdbuf(out_filter_.get());
}

TerminalGuard::~TerminalGuard() {
  for (auto [os, before, filter] : {std::tuple{&std::cout, out_, out_filter_.get()},
                                    std::tuple{&std::cerr, err_, err_filter_.get()}}) {
    if (!filter) continue;
    os->flush();
    os->rdbuf(before);
  }
  out_filter_.reset();  // writes what a cut UTF-8 sequence held, as \xNN
  err_filter_.reset();
  std::cout.flush();
  std::cerr.flush();
}

}  // namespace aerun
