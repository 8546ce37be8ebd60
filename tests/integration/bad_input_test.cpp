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

// Exit codes (README): 2 is bad input (the user's to fix), 4 the environment (the store cannot be
// written, a program cannot start): a script can tell "fix the case" from "try on another node".
TEST(BadInput, AStoreThatCannotBeWrittenIsAnEnvironmentFailureExitFourNotBadInput) {
  TempDir d;
  write_file(d / "c.yaml", "case: c\ncommand: echo hi\n");
  write_file(d / "not-a-folder", "a file where the store's folder should be\n");
  // Even as root (permissions do not stop root): the store's parent is a regular file.
  Result r = run_aerun(d, {"case", "c.yaml", "--db", "not-a-folder/aerun.db"});
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_THAT(r.err, HasSubstr("not-a-folder/aerun.db"));
  // The same command with a bad case file is bad input.
  write_file(d / "bad.yaml", "case: c\ncomand: echo hi\n");
  r = run_aerun(d, {"case", "bad.yaml", "--db", "not-a-folder/aerun.db"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.yaml:2"));
}

// A full disk under the store: exit 4 (the environment), and what was stored stays whole. Needs a
// tiny tmpfs (root, and a kernel that lets this sandbox mount): skipped where it cannot mount.
TEST(BadInput, AFullDiskUnderTheStoreIsExitFourAndLosesNothingStored) {
  TempDir d;
  fs::create_directories(d / "fs");
  if (std::system(
          ("mount -t tmpfs -o size=1m tmpfs " + aerun::shell_quote(d / "fs") + " 2>/dev/null")
              .c_str()) != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here";
  struct Unmount {
    std::string dir;
    ~Unmount() { std::system(("umount " + aerun::shell_quote(dir)).c_str()); }
  } unmount{d / "fs"};
  write_file(d / "a.yaml", "case: a\nparams: {i: [1, 2]}\ncommand: echo {i}\n");
  write_file(d / "b.yaml", "case: b\nparams: {i: [1, 2, 3]}\ncommand: echo {i}\n");
  ASSERT_EQ(run_aerun(d, {"case", "a.yaml", "--db", "fs/aerun.db"}).code, 0);
  std::system(
      ("dd if=/dev/zero of=" + aerun::shell_quote(d / "fs/filler") + " bs=4k 2>/dev/null").c_str());
  const Result r = run_aerun(d, {"case", "b.yaml", "--db", "fs/aerun.db"});
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_THAT(r.err, HasSubstr("fs/aerun.db"));
  fs::remove(d / "fs/filler");
  EXPECT_EQ(sql1(d / "fs/aerun.db", "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(sql1(d / "fs/aerun.db", "SELECT group_concat(status) FROM runs WHERE case_name='a'"),
            "ok,ok");
}
