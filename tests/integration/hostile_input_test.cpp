// Hostile names and inputs (issue 16): one case-name rule everywhere; ingest refuses what it
// could never finish reading.
#include <sys/stat.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(HostileInput, CaseNamesThatNameFoldersOrHoldControlCharactersAreRefusedEverywhere) {
  TempDir d;
  for (const char* name : {"..", "."}) {
    write_file(d / "c.yaml", std::string("case: \"") + name + "\"\ncommand: echo hi\n");
    const auto r = run_aerun(d, {"case", "c.yaml"});
    EXPECT_EQ(r.code, 2) << name;
    EXPECT_THAT(r.err, HasSubstr("c.yaml:1:7: case: case names are made of [A-Za-z0-9_.-] and are "
                                 "not . or .."));
  }
  fs::create_directories(d / "logs");
  write_file(d / "logs/a.log", " iteration 1/ 1 |\n");
  for (const std::string& name : {std::string(".."), std::string("a\nb"), std::string("it's")}) {
    const auto r = run_aerun(d, {"ingest", "logs", "--case", name, "--preset", "megatron"});
    EXPECT_EQ(r.code, 2) << name;
    EXPECT_THAT(r.err, HasSubstr("--case: case names are made of"));
  }
  EXPECT_FALSE(fs::exists(d / "results/aerun.db"));  // nothing stored
}

TEST(HostileInput, IngestRefusesDevicesAndFifosInsteadOfReadingForever) {
  TempDir d;
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), std::string(d / "fifo")}) {
    const auto r = run_aerun(d, {"ingest", path, "--case", "x", "--preset", "megatron"});
    EXPECT_EQ(r.code, 2) << path;
    EXPECT_THAT(r.err, HasSubstr("not a regular file"));
  }
}
