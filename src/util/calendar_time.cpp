#include "aerun/util/calendar_time.hpp"

#include <fmt/format.h>

#include <cmath>
#include <ctime>
#include <string_view>

namespace aerun {

namespace {

// Directives handed to strftime as they are (the C and POSIX ones that need no locale data
// beyond "C"); f, z and Z are ours.
constexpr std::string_view kStrftime = "aAbBcCdDeFgGhHIjmMnprRStTuUVwWxXyY%";
constexpr std::string_view kOwn = "fzZ";

// The instant as whole seconds (floor) and milliseconds, rounded once.
struct Split {
  long long seconds;
  int millis;
};

Split split(double epoch_s) {
  const long long ms = std::llround(epoch_s * 1000.0);
  long long s = ms / 1000;
  long long rest = ms % 1000;
  if (rest < 0) {
    rest += 1000;
    --s;
  }
  return {s, static_cast<int>(rest)};
}

std::tm broken_down(long long seconds, long offset_s) {
  const std::time_t t = static_cast<std::time_t>(seconds + offset_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return tm;
}

std::string offset_text(long offset_s, bool colon) {
  const long a = offset_s < 0 ? -offset_s : offset_s;
  return fmt::format("{}{:02}{}{:02}", offset_s < 0 ? '-' : '+', a / 3600, colon ? ":" : "",
                     a % 3600 / 60);
}

std::string strftime_piece(const std::tm& tm, const std::string& piece) {
  if (piece.empty()) return {};
  char buf[256];
  const size_t n = std::strftime(buf, sizeof buf, piece.c_str(), &tm);
  return std::string(buf, n);
}

}  // namespace

std::optional<std::string> calendar_format_problem(const std::string& format) {
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    if (i + 1 == format.size()) return std::string("the format ends with a lone '%'");
    const char d = format[++i];
    if (kStrftime.find(d) == std::string_view::npos && kOwn.find(d) == std::string_view::npos)
      return fmt::format(
          "unknown time directive '%{}' (use strftime's %Y %m %d %H %M %S ..., "
          "%f for milliseconds, %z or %Z for the zone)",
          d);
  }
  return std::nullopt;
}

std::string format_calendar_time(double epoch_s, const std::string& format, long offset_s) {
  const Split s = split(epoch_s);
  const std::tm tm = broken_down(s.seconds, offset_s);
  std::string out, piece;  // piece: text for strftime, flushed before each own directive
  for (size_t i = 0; i < format.size(); ++i) {
    const char c = format[i];
    const char d = c == '%' && i + 1 < format.size() ? format[i + 1] : '\0';
    if (d != '\0' && kOwn.find(d) != std::string_view::npos) {
      out += strftime_piece(tm, piece);
      piece.clear();
      if (d == 'f') out += fmt::format("{:03}", s.millis);
      if (d == 'z') out += offset_text(offset_s, false);
      if (d == 'Z') out += offset_s == 0 ? "UTC" : offset_text(offset_s, true);
      ++i;
    } else {
      piece += c;
      if (d != '\0') piece += format[++i];  // keep "%%" and "%X" whole
    }
  }
  return out + strftime_piece(tm, piece);
}

std::string iso8601(double epoch_s, long offset_s) {
  const Split s = split(epoch_s);
  std::string out = strftime_piece(broken_down(s.seconds, offset_s), "%Y-%m-%dT%H:%M:%S");
  if (s.millis != 0) out += fmt::format(".{:03}", s.millis);
  return out + (offset_s == 0 ? "Z" : offset_text(offset_s, true));
}

}  // namespace aerun
