// Bad input: a clear error naming file, line and key; exit 2; nothing stored is altered.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/util/sha256.hpp"
#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// Runs a good case once so a store exists, then the bad one; checks the store did not change.
aerun::testing::Result run_bad(const TempDir& d, const std::string& yaml,
                               std::vector<std::string> extra = {}) {
  write_file(d / "good.yaml", "case: good\ncommand: echo ok\n");
  EXPECT_EQ(run_aerun(d, {"case", "good.yaml"}).code, 0);
  const std::string db = d / "results/aerun.db";
  const auto before = sql(db, "SELECT * FROM runs");
  write_file(d / "bad.yaml", yaml);
  std::vector<std::string> args = {"case", "bad.yaml"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = run_aerun(d, args);
  EXPECT_EQ(sql(db, "SELECT * FROM runs"), before);
  return r;
}

}  // namespace

TEST(BadInput, MalformedYamlNamesFileLineAndColumn) {
  TempDir d;
  const auto r = run_bad(d, "case: x\ncommand: echo\nparams: {a: [1, 2}\n");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.yaml:3:"));
}

TEST(BadInput, UnknownKeyIsNamedWithTheNearestValidKey) {
  TempDir d;
  const auto r = run_bad(d, "case: x\ncommand: echo\nrepaet: 2\n");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.yaml:3"));
  EXPECT_THAT(r.err, HasSubstr("repaet"));
  EXPECT_THAT(r.err, HasSubstr("repeat"));
}

TEST(BadInput, PlaceholderWithoutParameterNamesBoth) {
  TempDir d;
  const auto r = run_bad(d, "case: x\nparams: {layers: 2}\ncommand: run -l {layres}\n");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.yaml:3"));
  EXPECT_THAT(r.err, HasSubstr("layres"));
  EXPECT_THAT(r.err, HasSubstr("command"));
}

TEST(BadInput, InvalidRegexNamesTheMetric) {
  TempDir d;
  const auto r =
      run_bad(d, "case: x\ncommand: echo\nmetrics:\n  iter_ms: {regex: 'time: ([0-9.]+'}\n");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.yaml:4"));
  EXPECT_THAT(r.err, HasSubstr("iter_ms"));
}

TEST(BadInput, UnknownOnlyKeyIsAUsageError) {
  TempDir d;
  const auto r = run_bad(d, "case: x\nparams: {layers: [1, 2]}\ncommand: echo {layers}\n",
                         {"--only", "layer=1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean 'layers'"));
}

TEST(BadInput, MissingCaseFileAndUnknownFlagsExitWithTwo) {
  TempDir d;
  EXPECT_EQ(run_aerun(d, {"case", "nope.yaml"}).code, 2);
  EXPECT_EQ(run_aerun(d, {"case", "--frobnicate", "x.yaml"}).code, 2);
  EXPECT_EQ(run_aerun(d, {"runs"}).code, 2);  // no store yet
}
