// `aerun forget` (issue 11): stored runs removed by case, parameters, status and date, in one
// transaction; --dry-run changes nothing; logs aerun wrote go unless --keep-logs, a user's
// ingested log never does. And commands that used to do nothing silently now say why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

const char* kCase = R"yaml(case: fg
params: {x: [1, 2, 3]}
command: if [ {x} = 3 ]; then exit 4; fi; echo x={x}
)yaml";

int count(const std::string& db, const std::string& where) {
  return std::stoi(sql1(db, "SELECT count(*) FROM runs WHERE " + where));
}

}  // namespace

TEST(Forget, RemovesTheSelectedRunsAndTheirLogsAndNothingElse) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  write_file(d / "other.yaml", "case: other\ncommand: echo hi\n");
  run_aerun(d, {"case", "c.yaml"});
  run_aerun(d, {"case", "other.yaml"});
  const std::string db = d / "results/aerun.db";
  ASSERT_EQ(count(db, "1"), 4);
  const std::string log_x1 = sql1(db,
                                  "SELECT log_path FROM runs r JOIN run_params p ON p.run_id=r.id "
                                  "WHERE p.name='x' AND p.value='1'");
  ASSERT_TRUE(fs::exists(log_x1));

  auto r = run_aerun(d, {"forget", "--case", "fg", "--only", "x=1", "--dry-run"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("1 run(s) would be forgotten"));
  EXPECT_EQ(count(db, "1"), 4);

  r = run_aerun(d, {"forget", "--case", "fg", "--only", "x=1"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("forgot 1 run(s), removed 1 log(s)"));
  EXPECT_EQ(count(db, "1"), 3);
  EXPECT_FALSE(fs::exists(log_x1));
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM run_params WHERE run_id NOT IN (SELECT id FROM runs)"),
            "0");

  r = run_aerun(d, {"forget", "--status", "failed", "--keep-logs"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("forgot 1 run(s) (logs kept)"));
  EXPECT_EQ(count(db, "status='failed'"), 0);
  EXPECT_EQ(count(db, "case_name='other'"), 1);

  // Before a date long past: nothing; before one to come: the rest.
  EXPECT_THAT(run_aerun(d, {"forget", "--case", "fg", "--before", "2001-01-01"}).out,
              HasSubstr("forgot 0 run(s)"));
  EXPECT_THAT(run_aerun(d, {"forget", "--case", "fg", "--before", "2999-01-01T00:00"}).out,
              HasSubstr("forgot 1 run(s)"));
  EXPECT_EQ(count(db, "1"), 1);
}

TEST(Forget, NeverDeletesAnIngestedLogAndRefusesVagueOrWrongSelections) {
  TempDir d;
  fs::create_directories(d / "mine");
  write_file(d / "mine/a.log", " iteration 1/ 1 | elapsed time per iteration (ms): 5.0 |\n");
  ASSERT_EQ(run_aerun(d, {"ingest", "mine", "--case", "ing", "--preset", "megatron"}).code, 0);
  auto r = run_aerun(d, {"forget", "--case", "ing"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(d / "mine/a.log"));

  r = run_aerun(d, {"forget"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("say which runs to forget"));
  run_aerun(d, {"ingest", "mine", "--case", "ing", "--preset", "megatron"});
  r = run_aerun(d, {"forget", "--case", "img"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean 'ing'?"));
  r = run_aerun(d, {"forget", "--before", "last tuesday"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("is not a date"));
}

TEST(SilentNothing, ATypoInACaseNameOrAnOnlyThatMatchesNothingIsAnError) {
  TempDir d;
  write_file(d / "c.yaml", kCase);
  run_aerun(d, {"case", "c.yaml", "--only", "x=1"});
  auto r = run_aerun(d, {"runs", "--case", "gf"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no runs of case 'gf'"));
  EXPECT_THAT(r.err, HasSubstr("did you mean 'fg'?"));
  r = run_aerun(d, {"case", "c.yaml", "--only", "x=7"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no run of case 'fg' matches --only x=7"));
}

TEST(SilentNothing, AnExcludeThatRemovesEveryPointIsWarnedAbout) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: none\nparams: {x: [1, 2]}\nexclude: ['x > 0']\ncommand: echo {x}\n");
  const auto r = run_aerun(d, {"case", "c.yaml"});
  EXPECT_THAT(r.err, HasSubstr("has no point left: `exclude:` removes every one"));
  EXPECT_THAT(r.err, HasSubstr("c.yaml:3"));
  EXPECT_THAT(r.err, HasSubstr("x > 0"));
}
