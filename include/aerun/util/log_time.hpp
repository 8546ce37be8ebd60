// Timestamps written in logs, read with real calendar arithmetic (never digit subtraction).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace aerun {

// Parses a timestamp by a strptime-like format into Unix epoch seconds (fractional). Directives:
// %Y year (4 digits), %m month, %d day, %H hour, %M minute, %S second (each 1-2 digits, or exactly
// 2 when the next format character is a digit directive, as in "%H%M%S"), %b month name
// (Jan..Dec), %f an optional fraction: a '.' or ',' then digits (absent is 0), %% a '%'. Any other
// character must appear as is. The whole text must be consumed. The fields are a local time at
// offset_s seconds east of UTC. nullopt when the text does not fit the format or names no real
// date/time (2023-02-30, 24:00:00).
std::optional<double> parse_log_time(std::string_view text, std::string_view format,
                                     long offset_s = 0);

// A time zone written in a case file: "UTC", "Z", "+HH:MM", "-HHMM", "+H" -> seconds east of UTC;
// nullopt for anything else (named zones are not supported: write the offset).
std::optional<long> parse_utc_offset(std::string_view tz);

}  // namespace aerun
