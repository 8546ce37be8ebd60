// The last timestamp a log states: the end of an ingested run (its file's modification time says
// when it was copied, not when it ended).
#include <fcntl.h>
#include <re2/re2.h>
#include <unistd.h>

#include <string>

#include "aerun/ingest/ingest.hpp"
#include "aerun/util/log_time.hpp"
#include "aerun/util/unique_fd.hpp"

namespace aerun {

namespace {

constexpr size_t kTailBytes = 64 * 1024;

// The file's last kTailBytes (whole lines only, unless the file is smaller).
std::string read_tail(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return "";
  const off_t size = ::lseek(fd.get(), 0, SEEK_END);
  if (size <= 0) return "";
  const off_t from = size > static_cast<off_t>(kTailBytes) ? size - kTailBytes : 0;
  std::string buf(static_cast<size_t>(size - from), '\0');
  size_t got = 0;
  while (got < buf.size()) {
    const ssize_t n = ::pread(fd.get(), buf.data() + got, buf.size() - got, from + got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  buf.resize(got);
  if (from > 0) {
    const size_t nl = buf.find('\n');
    buf.erase(0, nl == std::string::npos ? buf.size() : nl + 1);
  }
  return buf;
}

// A timestamp at the start of a line, as most logging setups write it: "2023-11-02 18:44:32,804",
// "[2023-11-02T18:44:32.804]", "2023-11-02 18:44:32 ...".
const RE2& leading_timestamp() {
  static const RE2 re(R"(^\[?(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:[.,]\d+)?))");
  return re;
}

}  // namespace

std::optional<double> last_log_time(const std::string& path, const StartupSpec& startup) {
  const long offset = parse_utc_offset(startup.tz).value_or(0);
  std::unique_ptr<RE2> step;
  if (!startup.step_time.empty()) step = std::make_unique<RE2>(startup.step_time, RE2::Quiet);
  const std::string tail = read_tail(path);
  size_t end = tail.size();
  while (end > 0) {
    const size_t nl = end > 1 ? tail.rfind('\n', end - 2) : std::string::npos;
    const size_t begin = nl == std::string::npos ? 0 : nl + 1;
    std::string_view line(tail.data() + begin, end - begin);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    end = begin;
    const re2::StringPiece text(line.data(), line.size());
    std::string cap, date, time;
    if (step && step->ok() && RE2::PartialMatch(text, *step, &cap))
      if (auto t = parse_log_time(cap, startup.step_time_format, offset)) return t;
    if (RE2::PartialMatch(text, leading_timestamp(), &date, &time))
      if (auto t = parse_log_time(date + " " + time, "%Y-%m-%d %H:%M:%S%f", offset)) return t;
  }
  return std::nullopt;
}

}  // namespace aerun
