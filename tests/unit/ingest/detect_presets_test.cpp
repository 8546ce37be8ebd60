// `--preset auto`: every real log of tests/fixtures/logs/presets is found to be of its own format
// (the folder it is in), from its first lines, and a mixed folder is read file by file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "aerun/ingest/ingest.hpp"
#include "aerun/store/store.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kFixtures = std::string(AERUN_FIXTURES) + "/logs";

TEST(PresetDetector, FindsEachRealLogsOwnFormat) {
  const aerun::PresetDetector detector;
  int files = 0;
  for (const auto& dir : fs::directory_iterator(kFixtures + "/presets")) {
    if (!dir.is_directory()) continue;
    const std::string preset = dir.path().filename().string();
    for (const auto& f : fs::directory_iterator(dir.path())) {
      SCOPED_TRACE(f.path().string());
      EXPECT_THAT(detector.detect(f.path().string()), testing::Contains(preset));
      ++files;
    }
  }
  EXPECT_GE(files, 40);
}

TEST(PresetDetector, FindsTheSeedsFormatsAndNothingInALogOfNone) {
  const aerun::PresetDetector detector;
  EXPECT_EQ(detector.detect(kFixtures + "/fixture_megatron_iterations.log"),
            std::vector<std::string>{"megatron"});
  EXPECT_EQ(detector.detect(kFixtures + "/fixture_deepspeed_engine.log"),
            std::vector<std::string>{"deepspeed"});
  EXPECT_EQ(detector.detect(kFixtures + "/fixture_hf-trainer_dicts.log"),
            std::vector<std::string>{"hf-trainer"});
  EXPECT_THAT(detector.detect(kFixtures + "/fixture_ezpz_trainer.log"), testing::Contains("ezpz"));
  // A Megatron-DeepSpeed run prints both.
  EXPECT_EQ(detector.detect(kFixtures + "/fixture_status_no_progress.log"),
            (std::vector<std::string>{"megatron", "deepspeed"}));
  // torchrun's own lines and a Slurm requeue are of no training framework.
  EXPECT_THAT(detector.detect(kFixtures + "/fixture_torchrun_restart.log"), testing::IsEmpty());
  EXPECT_THAT(detector.detect(kFixtures + "/fixture_slurm_requeue_same_log.log"),
              testing::IsEmpty());
}

TEST(PresetDetector, AMixedFolderIsIngestedFileByFileAndALogOfNoFormatIsUnknown) {
  std::string tmpl = (fs::temp_directory_path() / "aerun-auto-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path dir = tmpl;
  fs::copy_file(kFixtures + "/presets/torchtitan/torchtitan-complete-run.log", dir / "a.log");
  fs::copy_file(kFixtures + "/presets/mlperf/mlperf-dlrm-aborted.log", dir / "b.log");
  fs::copy_file(kFixtures + "/presets/nanogpt/nanogpt-issue215-nan.log", dir / "c.log");
  fs::copy_file(kFixtures + "/fixture_torchrun_restart.log", dir / "d.log");
  fs::copy_file(kFixtures + "/fixture_slurm_requeue_same_log.log", dir / "e.log");
  aerun::Store store(":memory:");
  aerun::CaseSpec spec;
  spec.name = "mixed";
  aerun::IngestOptions o;
  o.auto_presets = true;
  o.jobs = 2;
  const auto files = aerun::ingest_paths(store, spec, {dir.string()}, o);
  ASSERT_EQ(files.size(), 5u);
  EXPECT_EQ(files[0].presets, "torchtitan");
  EXPECT_EQ(files[0].status, "ok");
  EXPECT_EQ(files[1].presets, "mlperf");
  EXPECT_EQ(files[1].status, "failed");  // run_stop with "status": "aborted"
  EXPECT_EQ(files[2].presets, "nanogpt");
  EXPECT_EQ(files[2].status, "diverged");
  // torchrun's lines only: a failed worker, a restart, then nothing aerun can read.
  EXPECT_EQ(files[3].presets, "");
  EXPECT_EQ(files[3].status, "unknown_format");
  const auto run = store.find_by_key(files[3].key);
  ASSERT_TRUE(run);
  EXPECT_THAT(run->reason, testing::HasSubstr("auto: none of mlperf, megatron"));
  EXPECT_THAT(run->reason, testing::HasSubstr("1 earlier attempt: launcher_failed (line 1)"));
  // No format either, but a line that says what happened: the base vocabulary still reads it.
  EXPECT_EQ(files[4].presets, "");
  EXPECT_EQ(files[4].status, "interrupted");
  // Each file's numbers come from its own format.
  const auto titan = store.find_by_key(files[0].key);
  ASSERT_TRUE(titan);
  EXPECT_TRUE(std::any_of(titan->metrics.begin(), titan->metrics.end(),
                          [](const auto& m) { return m.name == "loss" && m.value == 3.9761; }));
  fs::remove_all(dir);
}

}  // namespace
