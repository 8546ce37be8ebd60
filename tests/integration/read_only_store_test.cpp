// A reviewer's store on read-only media: every reading command works (issue 11).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

namespace {

// A read-only bind mount of a folder (needs root and mount rights: skipped without them), undone
// on destruction.
class ReadOnlyMount {
 public:
  ReadOnlyMount(const std::string& from, const std::string& at) : at_(at) {
    fs::create_directories(at);
    const std::string cmd = "mount --bind " + aerun::shell_quote(from) + " " +
                            aerun::shell_quote(at) + " 2>/dev/null && mount -o remount,bind,ro " +
                            aerun::shell_quote(at) + " 2>/dev/null";
    mounted_ = std::system(cmd.c_str()) == 0;
    if (!mounted_) std::system(("umount " + aerun::shell_quote(at) + " 2>/dev/null").c_str());
  }
  ~ReadOnlyMount() {
    if (mounted_) [[maybe_unused]]
      int rc = std::system(("umount " + aerun::shell_quote(at_)).c_str());
  }
  bool mounted() const { return mounted_; }

 private:
  std::string at_;
  bool mounted_ = false;
};

}  // namespace

TEST(ReadOnlyStore, EveryReadingCommandWorksOnReadOnlyMedia) {
  TempDir d;
  write_file(d / "c.yaml",
             "case: ro\nparams: {x: [1, 2]}\ncommand: \"echo iter_ms={x}.5\"\n"
             "metrics: {iter_ms: 'iter_ms=([0-9.]+)'}\n"
             "tables:\n  t:\n    rows: [x]\n    columns: [iter_ms]\n");
  ASSERT_EQ(run_aerun(d, {"case", "c.yaml"}).code, 0);
  const ReadOnlyMount ro(d / "results", d / "media");
  if (!ro.mounted()) GTEST_SKIP() << "cannot make a read-only bind mount here (needs root)";
  const std::string db = d / "media/aerun.db";
  auto r = run_aerun(d, {"--db", db, "runs", "--format", "csv"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("ok"));
  r = run_aerun(d, {"--db", db, "table", "t", "--cases", "c.yaml", "--format", "csv"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("2,2.5"));
  const std::string key = sql1(d / "results/aerun.db", "SELECT key FROM runs LIMIT 1");
  r = run_aerun(d, {"--db", db, "show", key.substr(0, 8)});
  EXPECT_EQ(r.code, 0) << r.err;
  // Writing commands say why they cannot.
  r = run_aerun(d, {"--db", db, "case", "c.yaml", "--force"});
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.err, HasSubstr("read"));
}
