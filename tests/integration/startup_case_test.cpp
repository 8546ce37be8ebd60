// The shipped startup case (seed 000): `aerun ingest` of logs named like ALCF's train-gpt3.sh names
// them gives the Perlmutter startup table with calendar-correct seconds beside the seed's values
// (tests/fixtures/startup/README.md says how every fixture was made).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

namespace aerun::testing {
namespace {

using ::testing::HasSubstr;

const std::string kCase = std::string(AERUN_CASES_DIR) + "/startup/perlmutter.yaml";
const std::string kFixtures = std::string(AERUN_FIXTURES) + "/startup";
// The pattern cases/startup/perlmutter.yaml documents; fixture logs add "fixture_" to the user.
const std::string kPattern =
    "gpt_{model}_z{settings}/logs/{user}-{host}-nhosts{nhosts}-ngpu{ngpu}-{stamp}.log";

std::string row_of(const std::string& table, const std::string& stamp) {
  const auto at = table.find("| " + stamp + " |");
  return at == std::string::npos ? "" : table.substr(at, table.find('\n', at) - at);
}

TEST(StartupCase, IngestingPerlmutterLogsGivesTheSeedsTableWithCalendarSeconds) {
  TempDir dir;
  Result r = run_aerun(dir, {"ingest", "--assume-complete", kFixtures + "/perlmutter", "--case",
                             kCase, "--pattern", kPattern, "--db", dir / "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("119 added, 0 updated, 0 unchanged, 0 skipped"));
  r = run_aerun(dir, {"table", "startup-perlmutter", "--cases", kCase, "--db", dir / "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  expect_golden(r.out, kFixtures + "/golden/startup-perlmutter.md");

  // Model size from the run's folder, world size from the name, the seed's start and stop
  // columns as the logs wrote them ("Job started at" and rank 0's step=0 stamp, shown in the
  // seed's %Y-%m-%d-%H%M%S), seconds by calendar arithmetic:
  // 18:59:52 -> 19:00:46 = 8 s + 46 s = 54 s (the seed's digit subtraction 190046 - 185952: 4094)
  EXPECT_THAT(r.out, HasSubstr("| stamp | Model size | World size | Start (log clock) | First step "
                               "(log clock) | Startup (s) | paper | ratio |"));
  EXPECT_EQ(
      row_of(r.out, "2023-10-15-185952"),
      "| 2023-10-15-185952 | GPT1T_1L | 8 | 2023-10-15-185952 | 2023-10-15-190046 | 54.0 | 54 "
      "| 1.00 ✓ |");
  // 19:11:01 -> 19:12:15 = 59 s + 15 s = 74 s (seed: 191215 - 191101 = 114)
  EXPECT_EQ(
      row_of(r.out, "2023-10-05-191101"),
      "| 2023-10-05-191101 | GPT1T_1L | 8 | 2023-10-05-191101 | 2023-10-05-191215 | 74.0 | 74 "
      "| 1.00 ✓ |");
  // 00:54:01 -> 00:58:11 = 3 min 59 s + 11 s = 250 s on 512 GPUs (seed: 5811 - 5401 = 410)
  EXPECT_EQ(
      row_of(r.out, "2023-10-26-005401"),
      "| 2023-10-26-005401 | GPT1T_128L | 512 | 2023-10-26-005401 | 2023-10-26-005811 | 250.0 "
      "| 250 | 1.00 ✓ |");
  // 21:49:00 -> 21:49:59 = 59 s: the one row the seed got right
  EXPECT_EQ(
      row_of(r.out, "2023-10-17-214900"),
      "| 2023-10-17-214900 | GPT1T_2L | 32 | 2023-10-17-214900 | 2023-10-17-214959 | 59.0 | 59 "
      "| 1.00 ✓ |");

  // csv carries the instants in ISO 8601 (start, its min, max and n; then the first step)
  r = run_aerun(dir, {"table", "startup-perlmutter", "--cases", kCase, "--db", dir / "r.db",
                      "--format", "csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out,
              HasSubstr("\n2023-10-15-185952,GPT1T_1L,8,2023-10-15T18:59:52Z,"
                        "2023-10-15T18:59:52Z,2023-10-15T18:59:52Z,1,2023-10-15T19:00:46Z,"));
}

TEST(StartupCase, SeedPolarisLogsGiveMillisecondStartupsAndNoneWithoutAFirstStep) {
  // The five logs of the seed's grep listing, with the lines it printed (verbatim).
  TempDir dir;
  const Result r = run_aerun(dir, {"ingest", "--assume-complete", kFixtures + "/polaris", "--case",
                                   kCase, "--pattern", kPattern, "--db", dir / "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("5 added"));
  const std::string db = dir / "r.db";
  // startup_s to the millisecond (the stamps are epoch seconds as doubles)
  auto startup = [&](const std::string& stamp) {
    return sql1(db,
                "SELECT coalesce(round(startup_s, 3), 'none') || ' ' || status FROM runs r JOIN "
                "run_params p "
                "ON p.run_id = r.id WHERE p.name = 'stamp' AND p.value = '" +
                    stamp + "'");
  };
  EXPECT_EQ(startup("2023-11-02-183323"), "50.122 ok");         // 18:33:23 -> 18:34:13,122
  EXPECT_EQ(startup("2023-11-02-184259"), "24.385 ok");         // 18:42:59 -> 18:43:23,385
  EXPECT_EQ(startup("2023-11-02-184407"), "25.804 ok");         // 18:44:07 -> 18:44:32,804
  EXPECT_EQ(startup("2023-11-02-184240"), "none no_progress");  // never reached step 0
  EXPECT_EQ(startup("2023-11-02-192739"), "none no_progress");
  // json: rank 0's first step with its milliseconds, 18:34:13,122 in the log
  const Result json = run_aerun(
      dir, {"table", "startup-perlmutter", "--cases", kCase, "--db", db, "--format", "json"});
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"First step\": {\"text\": \"2023-11-02-183413\", \"value\": "
                                  "\"2023-11-02T18:34:13.122Z\""));
  EXPECT_EQ(sql1(db,
                 "SELECT group_concat(DISTINCT value) FROM (SELECT value FROM run_params "
                 "WHERE name = 'model' ORDER BY value)"),
            "SP_actCkpt_GPT125M,actCkpt_GPT1T_4L");
}

}  // namespace
}  // namespace aerun::testing
