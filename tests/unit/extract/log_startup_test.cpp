// Startup from in-log timestamps: calendar arithmetic, never digit subtraction. The rows are from
// seed 000's Perlmutter table, whose dt column subtracted HHMMSS as numbers.
#include <gtest/gtest.h>

#include "aerun/case/apply_presets.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/util/log_time.hpp"

namespace {

// The startup the `startup` preset computes for a log with these two stamps.
double startup_of(const std::string& job_started, const std::string& step_stamp,
                  const std::string& tz = "UTC") {
  aerun::CaseSpec spec;
  spec.presets = {"startup"};
  aerun::apply_presets(spec, {});
  spec.startup.tz = tz;
  aerun::Extractor ex(spec.metrics, spec.status, spec.startup);
  ex.feed("Job started at: " + job_started +
          " on nid008217\n> initializing torch distributed ...\n[" + step_stamp +
          "] [INFO] [logging.py:96:log_dist] [Rank 0] step=0, skipped=0, lr=[0.0, 0.0], "
          "mom=[(0.9, 0.999), (0.9, 0.999)]\n");
  ex.finish();
  for (const auto& m : ex.metrics())
    if (m.name == aerun::kLogStartupMetric) return m.value;
  return -1;
}

}  // namespace

TEST(LogStartup, SeedTableRowsWithinOneMinuteAgreeWithTheTable) {
  // 2023-10-15-154337 -> 154446 is 1 min 9 s, not 109
  EXPECT_NEAR(startup_of("2023-10-15-154337", "2023-10-15 15:44:46,000"), 69, 1e-9);
  // 2023-10-17-214900 -> 214959: 59 s, as the table says
  EXPECT_NEAR(startup_of("2023-10-17-214900", "2023-10-17 21:49:59,000"), 59, 1e-9);
}

TEST(LogStartup, AcrossMinutesTheTableWasWrong) {
  EXPECT_NEAR(startup_of("2023-10-05-191101", "2023-10-05 19:12:15,000"), 74, 1e-9);   // table: 114
  EXPECT_NEAR(startup_of("2023-10-15-133531", "2023-10-15 13:37:45,000"), 134, 1e-9);  // table: 214
  EXPECT_NEAR(startup_of("2023-10-26-005401", "2023-10-26 00:58:11,000"), 250, 1e-9);  // table: 410
}

TEST(LogStartup, AcrossTheHourTheTableWasFarOff) {
  EXPECT_NEAR(startup_of("2023-10-15-185952", "2023-10-15 19:00:46,000"), 54, 1e-9);   // 4094
  EXPECT_NEAR(startup_of("2023-10-17-215938", "2023-10-17 22:00:44,000"), 66, 1e-9);   // 4106
  EXPECT_NEAR(startup_of("2023-10-16-104819", "2023-10-16 11:00:02,000"), 703, 1e-9);  // 5183
  EXPECT_NEAR(startup_of("2023-10-18-115808", "2023-10-18 12:01:46,000"), 218, 1e-9);  // 4338
  EXPECT_NEAR(startup_of("2023-10-17-065806", "2023-10-17 07:00:03,000"), 117, 1e-9);  // 4197
}

TEST(LogStartup, MillisecondsOfTheStepStampCount) {
  // The seed's own example: Job started at 2023-11-02-183323, first step 18:34:13,122
  EXPECT_NEAR(startup_of("2023-11-02-183323", "2023-11-02 18:34:13,122"), 50.122, 1e-6);
}

TEST(LogStartup, AcrossMidnightMonthsAndYears) {
  EXPECT_NEAR(startup_of("2023-10-31-235930", "2023-11-01 00:01:10,500"), 100.5, 1e-6);
  EXPECT_NEAR(startup_of("2023-12-31-235959", "2024-01-01 00:00:01,000"), 2, 1e-9);
  EXPECT_NEAR(startup_of("2024-02-28-235900", "2024-02-29 00:01:00,000"), 120, 1e-9);  // leap day
}

TEST(LogStartup, ATimeZoneOffsetShiftsBothStampsAlike) {
  EXPECT_NEAR(startup_of("2023-10-15-185952", "2023-10-15 19:00:46,000", "-07:00"), 54, 1e-9);
}

TEST(LogTime, ParsesFormatsIntoEpochSeconds) {
  // 2023-11-02 18:33:23 UTC = 19663 days * 86400 + 66803 s
  EXPECT_EQ(aerun::parse_log_time("2023-11-02-183323", "%Y-%m-%d-%H%M%S"), 1698950003.0);
  EXPECT_NEAR(*aerun::parse_log_time("2023-11-02 18:33:23.250", "%Y-%m-%d %H:%M:%S%f"),
              1698950003.25, 1e-6);
  EXPECT_EQ(aerun::parse_log_time("2023-11-02 18:33:23", "%Y-%m-%d %H:%M:%S%f"), 1698950003.0);
  EXPECT_EQ(aerun::parse_log_time("02 Nov 2023 18:33:23", "%d %b %Y %H:%M:%S"), 1698950003.0);
  EXPECT_EQ(aerun::parse_log_time("2023-11-02 20:33:23", "%Y-%m-%d %H:%M:%S", 7200), 1698950003.0);
}

TEST(LogTime, RejectsTextThatIsNotARealTime) {
  EXPECT_EQ(aerun::parse_log_time("2023-02-30-120000", "%Y-%m-%d-%H%M%S"), std::nullopt);
  EXPECT_EQ(aerun::parse_log_time("2023-11-02-246000", "%Y-%m-%d-%H%M%S"), std::nullopt);
  EXPECT_EQ(aerun::parse_log_time("2023-11-02-18332", "%Y-%m-%d-%H%M%S"), std::nullopt);
  EXPECT_EQ(aerun::parse_log_time("2023-11-02-183323 extra", "%Y-%m-%d-%H%M%S"), std::nullopt);
}

TEST(LogTime, ReadsUtcOffsets) {
  EXPECT_EQ(aerun::parse_utc_offset("UTC"), 0);
  EXPECT_EQ(aerun::parse_utc_offset("+02:00"), 7200);
  EXPECT_EQ(aerun::parse_utc_offset("-0530"), -19800);
  EXPECT_EQ(aerun::parse_utc_offset("+9"), 32400);
  EXPECT_EQ(aerun::parse_utc_offset("America/Chicago"), std::nullopt);
}
