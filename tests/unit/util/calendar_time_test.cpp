// Instants as calendar time: strftime formats with %f/%z/%Z, and ISO 8601 for csv and json.
#include "aerun/util/calendar_time.hpp"

#include <gtest/gtest.h>

#include "aerun/util/log_time.hpp"

namespace aerun {
namespace {

// 1 700 000 000 s = 19 675 days + 80 000 s; day 19 675 after 1970-01-01 is 2023-11-14 and
// 80 000 s = 22 h 13 min 20 s.
constexpr double kT = 1700000000.0;

TEST(CalendarTime, FormatsAnInstantInUtcByAStrftimeFormat) {
  EXPECT_EQ(format_calendar_time(kT, "%Y-%m-%d %H:%M:%S"), "2023-11-14 22:13:20");
  // seed 000's start/stop columns
  EXPECT_EQ(format_calendar_time(kT, "%Y-%m-%d-%H%M%S"), "2023-11-14-221320");
  EXPECT_EQ(format_calendar_time(kT, "%d %b %Y, %%"), "14 Nov 2023, %");
}

TEST(CalendarTime, MillisecondsAndZonesAreOurDirectives) {
  // .1226 rounds to 123 ms
  EXPECT_EQ(format_calendar_time(kT + 0.1226, "%H:%M:%S,%f %Z"), "22:13:20,123 UTC");
  // 22:13:20 UTC + 2 h = 00:13:20 the next day
  EXPECT_EQ(format_calendar_time(kT, "%Y-%m-%d %H:%M %Z", 7200), "2023-11-15 00:13 +02:00");
  // 22:13:20 UTC - 5 h 30 min = 16:43:20
  EXPECT_EQ(format_calendar_time(kT, "%H:%M:%S%z", -19800), "16:43:20-0530");
  // 0.9996 s rounds up to the next second, not to 1000 ms
  EXPECT_EQ(format_calendar_time(kT + 0.9996, "%S.%f"), "21.000");
}

TEST(CalendarTime, Iso8601CarriesMillisecondsOnlyWhenThereAreSome) {
  EXPECT_EQ(iso8601(kT), "2023-11-14T22:13:20Z");
  EXPECT_EQ(iso8601(kT + 0.5), "2023-11-14T22:13:20.500Z");
  EXPECT_EQ(iso8601(kT, 7200), "2023-11-15T00:13:20+02:00");
  EXPECT_EQ(iso8601(-0.5), "1969-12-31T23:59:59.500Z");
}

TEST(CalendarTime, ReadsBackWhatALogStampGave) {
  // seed 000: "Job started at: 2023-10-15-185952" parsed, then shown by the same format
  const auto t = parse_log_time("2023-10-15-185952", "%Y-%m-%d-%H%M%S");
  ASSERT_TRUE(t);
  EXPECT_EQ(format_calendar_time(*t, "%Y-%m-%d-%H%M%S"), "2023-10-15-185952");
  EXPECT_EQ(iso8601(*t), "2023-10-15T18:59:52Z");
}

TEST(CalendarTime, UnknownDirectivesAndALonePercentAreProblems) {
  EXPECT_FALSE(calendar_format_problem("%Y-%m-%d %H:%M:%S.%f %Z"));
  EXPECT_NE(calendar_format_problem("%Q").value_or("").find("'%Q'"), std::string::npos);
  EXPECT_NE(calendar_format_problem("at %").value_or("").find("lone '%'"), std::string::npos);
}

}  // namespace
}  // namespace aerun
