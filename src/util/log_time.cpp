#include "aerun/util/log_time.hpp"

#include <array>
#include <cctype>
#include <chrono>

namespace aerun {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Reads between min and max digits at text[pos]; advances pos.
std::optional<int> read_int(std::string_view text, size_t& pos, int min, int max) {
  int v = 0, n = 0;
  while (n < max && pos < text.size() && is_digit(text[pos])) {
    v = v * 10 + (text[pos++] - '0');
    ++n;
  }
  if (n < min) return std::nullopt;
  return v;
}

// Whether the format continues with a digit directive right after position i (so a 1-2 digit
// field must take exactly 2 digits, as in %H%M%S).
bool next_is_digit_field(std::string_view fmt, size_t i) {
  return i + 1 < fmt.size() && fmt[i] == '%' &&
         std::string_view("YmdHMS").find(fmt[i + 1]) != std::string_view::npos;
}

}  // namespace

std::optional<double> parse_log_time(std::string_view text, std::string_view fmt, long offset_s) {
  static constexpr std::array<std::string_view, 12> months{
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  double fraction = 0;
  size_t pos = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%' || i + 1 >= fmt.size()) {
      if (pos >= text.size() || text[pos] != fmt[i]) return std::nullopt;
      ++pos;
      continue;
    }
    const char d = fmt[++i];
    // Fields written back to back ("%H%M%S") take exactly 2 digits each.
    const bool packed =
        next_is_digit_field(fmt, i + 1) || (i >= 3 && next_is_digit_field(fmt, i - 3));
    const int width_min = packed ? 2 : 1;
    std::optional<int> v;
    switch (d) {
      case 'Y':
        if (!(v = read_int(text, pos, 4, 4))) return std::nullopt;
        year = *v;
        break;
      case 'm':
      case 'd':
      case 'H':
      case 'M':
      case 'S':
        if (!(v = read_int(text, pos, width_min, 2))) return std::nullopt;
        (d == 'm' ? month : d == 'd' ? day : d == 'H' ? hour : d == 'M' ? minute : second) = *v;
        break;
      case 'b': {
        bool found = false;
        for (size_t k = 0; k < months.size() && !found; ++k)
          if (text.substr(pos, 3) == months[k]) {
            month = static_cast<int>(k) + 1;
            pos += 3;
            found = true;
          }
        if (!found) return std::nullopt;
        break;
      }
      case 'f':
        if (pos < text.size() && (text[pos] == '.' || text[pos] == ',') && pos + 1 < text.size() &&
            is_digit(text[pos + 1])) {
          ++pos;
          double scale = 0.1;
          while (pos < text.size() && is_digit(text[pos])) {
            fraction += (text[pos++] - '0') * scale;
            scale /= 10;
          }
        }
        break;
      case '%':
        if (pos >= text.size() || text[pos] != '%') return std::nullopt;
        ++pos;
        break;
      default:
        return std::nullopt;
    }
  }
  if (pos != text.size()) return std::nullopt;
  using namespace std::chrono;
  const year_month_day ymd{std::chrono::year{year},
                           std::chrono::month{static_cast<unsigned>(month)},
                           std::chrono::day{static_cast<unsigned>(day)}};
  if (!ymd.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  const auto days = sys_days(ymd).time_since_epoch().count();
  const long long secs = static_cast<long long>(days) * 86400 + hour * 3600 + minute * 60 + second;
  return static_cast<double>(secs - offset_s) + fraction;
}

std::optional<long> parse_utc_offset(std::string_view tz) {
  if (tz.empty() || tz == "UTC" || tz == "Z" || tz == "utc") return 0;
  if (tz.front() != '+' && tz.front() != '-') return std::nullopt;
  const long sign = tz.front() == '-' ? -1 : 1;
  size_t pos = 1;
  const auto h = read_int(tz, pos, 1, 2);
  if (!h || *h > 14) return std::nullopt;
  int m = 0;
  if (pos < tz.size()) {
    if (tz[pos] == ':') ++pos;
    const auto mm = read_int(tz, pos, 2, 2);
    if (!mm || *mm > 59) return std::nullopt;
    m = *mm;
  }
  if (pos != tz.size()) return std::nullopt;
  return sign * (*h * 3600L + m * 60L);
}

}  // namespace aerun
