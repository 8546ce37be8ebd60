// The generic reader from the command line: `aerun ingest --preset generic` and `--preset auto`
// on a real log no preset covers (tests/fixtures/logs/generic/README.md), `--explain` on ingest
// and on a stored run, and a run of `aerun case` whose command prints such a log.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string kGeneric = std::string(AERUN_FIXTURES) + "/logs/generic/";

}  // namespace

TEST(GenericReaderCli, IngestReadsALogNoPresetKnowsAndTracesEachNumber) {
  TempDir d;
  fs::copy_file(kGeneric + "detectron2/d2-balloon-maskrcnn-ok.log", d / "d2.log");
  for (const char* preset : {"generic", "auto"}) {
    const auto r = run_aerun(d, {"ingest", "d2.log", "--case", std::string("d2") + preset,
                                 "--preset", preset, "--db", "r.db"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(" ok "));  // "Total training time: 0:06:14" ends it
  }
  const std::string db = d / "r.db";
  EXPECT_EQ(sql1(db, "SELECT count(*) FROM runs WHERE status='ok'"), "2");
  // total_loss: 0.3553 at line 38, the last progress line; stored as loss, traced to its line.
  EXPECT_EQ(sql1(db,
                 "SELECT m.value || ' ' || m.source_line FROM metrics m JOIN runs r ON "
                 "r.id=m.run_id WHERE r.case_name='d2generic' AND m.name='loss'"),
            "0.3553 38");
  EXPECT_EQ(sql1(db,
                 "SELECT m.unit FROM metrics m JOIN runs r ON r.id=m.run_id WHERE "
                 "r.case_name='d2generic' AND m.name='memory_gb'"),
            "GB");
}

TEST(GenericReaderCli, ExplainSaysWhichLinesWereReadAsWhatAndStoresNothing) {
  TempDir d;
  fs::copy_file(kGeneric + "detectron2/d2-balloon-maskrcnn-ok.log", d / "d2.log");
  const auto r = run_aerun(d, {"ingest", "--explain", "d2.log", "--db", "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("status ok"));
  EXPECT_THAT(r.out, HasSubstr("[progress] lines 24-38, 15 lines"));
  EXPECT_THAT(r.out, HasSubstr("'time' is a spelling of iter_ms; no unit printed: seconds"));
  EXPECT_THAT(r.out, HasSubstr("'total_loss' is a spelling of loss"));
  EXPECT_FALSE(fs::exists(d / "r.db"));
}

TEST(GenericReaderCli, ShowExplainReadsAStoredRunsLogAgain) {
  TempDir d;
  fs::copy_file(kGeneric + "keras3/keras3-mnist-cnn-10ep-ok.log", d / "k.log");
  auto r = run_aerun(d, {"ingest", "k.log", "--case", "k", "--preset", "generic", "--db", "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string id = sql1(d / "r.db", "SELECT id FROM runs");
  r = run_aerun(d, {"show", id, "--explain", "--db", "r.db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("read by: the generic reader"));
  EXPECT_THAT(r.out, HasSubstr("[progress]"));
  EXPECT_THAT(r.out, HasSubstr("val_accuracy"));
}

TEST(GenericReaderCli, ACaseWithNoPresetReadsItsRunsLogTheSameWay) {
  TempDir d;
  fs::copy_file(kGeneric + "fastai/fastai-quickstart-rocm.log", d / "f.log");
  write_file(d / "c.yaml", "case: fastai\ncommand: cat f.log\n");
  const auto r = run_aerun(d, {"case", "c.yaml", "--db", "r.db", "--no-progress"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string db = d / "r.db";
  EXPECT_EQ(sql1(db, "SELECT status FROM runs"), "ok");  // exit code 0
  // fastai's tables: "epoch  train_loss  valid_loss  accuracy  time", the last row at line 17.
  EXPECT_EQ(sql1(db, "SELECT value || ' ' || source_line FROM metrics WHERE name='eval_loss'"),
            "0.203753 17");
}
