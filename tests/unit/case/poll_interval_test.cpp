// `poll_interval:` / --poll-interval / $AERUN_POLL_INTERVAL / $AERUN_POLL_MIN.
#include "aerun/case/poll_interval.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

using namespace aerun;
using ::testing::HasSubstr;

namespace {

// Sets (or, with nullptr, unsets) an environment variable for one test.
class EnvVar {
 public:
  EnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~EnvVar() {
    if (old_.empty())
      ::unsetenv(name_);
    else
      ::setenv(name_, old_.c_str(), 1);
  }

 private:
  const char* name_;
  std::string old_;
};

const SourceLoc kLoc{"c.yaml", 7, 1};

}  // namespace

TEST(PollInterval, AFirstIntervalAloneKeepsTheDefaultLongestOrGrowsItToTheFirst) {
  EXPECT_DOUBLE_EQ(parse_poll_interval("5s", kLoc, "poll_interval").min_s, 5);
  EXPECT_DOUBLE_EQ(parse_poll_interval("5s", kLoc, "poll_interval").max_s, 30);
  EXPECT_DOUBLE_EQ(parse_poll_interval("2m", kLoc, "poll_interval").max_s, 120);
}

TEST(PollInterval, FirstAndLongestAreDurations) {
  const PollInterval p = parse_poll_interval("10s..5m", kLoc, "poll_interval");
  EXPECT_DOUBLE_EQ(p.min_s, 10);
  EXPECT_DOUBLE_EQ(p.max_s, 300);
}

TEST(PollInterval, BadValuesNameFileLineAndKey) {
  auto message = [](const std::string& text) {
    try {
      parse_poll_interval(text, kLoc, "poll_interval");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(message("5m..10s"), HasSubstr("the longest interval is shorter than the first"));
  EXPECT_THAT(message("0.01s"), HasSubstr("at most every 0.1 s"));
  EXPECT_THAT(message("often"), HasSubstr("c.yaml:7"));
  EXPECT_THAT(message("often"), HasSubstr("poll_interval"));
}

TEST(PollInterval, TheCommandLineBeatsTheCaseWhichBeatsTheEnvironment) {
  EnvVar e("AERUN_POLL_INTERVAL", "7s..70s");
  EnvVar f("AERUN_POLL_MIN", nullptr);
  const PollInterval cli{2, 20}, from_case{3, 30};
  EXPECT_DOUBLE_EQ(resolve_poll_interval(cli, from_case, nullptr).min_s, 2);
  EXPECT_DOUBLE_EQ(resolve_poll_interval(std::nullopt, from_case, nullptr).min_s, 3);
  EXPECT_DOUBLE_EQ(resolve_poll_interval(std::nullopt, std::nullopt, nullptr).min_s, 7);
  EXPECT_DOUBLE_EQ(resolve_poll_interval(std::nullopt, std::nullopt, nullptr).max_s, 70);
}

TEST(PollInterval, TheDefaultIsOneSecondGrowingToThirty) {
  EnvVar e("AERUN_POLL_INTERVAL", nullptr);
  EnvVar f("AERUN_POLL_MIN", nullptr);
  const PollInterval p = resolve_poll_interval(std::nullopt, std::nullopt, nullptr);
  EXPECT_DOUBLE_EQ(p.min_s, 1);
  EXPECT_DOUBLE_EQ(p.max_s, 30);
}

TEST(PollInterval, ASitesFloorRaisesAnIntervalBelowItAndSaysSo) {
  EnvVar f("AERUN_POLL_MIN", "10s");
  std::string warning;
  const PollInterval p = resolve_poll_interval(PollInterval{1, 5}, std::nullopt, &warning);
  EXPECT_DOUBLE_EQ(p.min_s, 10);
  EXPECT_DOUBLE_EQ(p.max_s, 10);
  EXPECT_THAT(warning, HasSubstr("AERUN_POLL_MIN is 10s"));
  warning.clear();
  resolve_poll_interval(PollInterval{20, 60}, std::nullopt, &warning);
  EXPECT_EQ(warning, "");
}
