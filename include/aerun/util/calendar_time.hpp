// Instants (Unix epoch seconds) written as calendar time: for tables and their machine formats.
#pragma once

#include <optional>
#include <string>

namespace aerun {

// The instant at offset_s seconds east of UTC, by a strftime format (%Y %m %d %H %M %S %b %a %j
// %e %F %T %D %R %y %p %I %%...), plus %f = milliseconds (3 digits), %z = +HHMM and %Z = "UTC"
// or +HH:MM. The instant is first rounded to the millisecond.
std::string format_calendar_time(double epoch_s, const std::string& format, long offset_s = 0);

// Why `format` cannot format an instant (an unknown directive, a trailing '%'), or nullopt.
std::optional<std::string> calendar_format_problem(const std::string& format);

// ISO 8601: 2023-10-15T19:00:46Z, with .mmm when the milliseconds are not 0 and +HH:MM instead
// of Z when offset_s is not 0.
std::string iso8601(double epoch_s, long offset_s = 0);

}  // namespace aerun
