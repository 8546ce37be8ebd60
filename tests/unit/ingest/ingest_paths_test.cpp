// Ingesting a folder of logs named like seed 002's into a store: runs, idempotence, updates.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "aerun/case/apply_presets.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/store/store.hpp"

namespace fs = std::filesystem;
using aerun::IngestedFile;

namespace {

// A temp folder with seed-002-style logs, and a store beside it.
class IngestFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "aerun-ingest-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    fs::create_directories(dir_ / "results");
    spec_.name = "fig9";
    spec_.presets = {"megatron", "stronghold"};
    aerun::apply_presets(spec_, {});
    const std::string stronghold =
        std::string(AERUN_FIXTURES) + "/logs/fixture_stronghold_offload.log";
    fs::copy_file(stronghold,
                  logs() + "/log_stronghold_l-32_hs-2048_bs-4_ws-2_2022-06-29.1656476815.txt");
    fs::copy_file(stronghold,
                  logs() + "/log_stronghold_l-32_hs-2048_bs-4_ws-10_2022-06-29.1656478517.txt");
    fs::copy_file(std::string(AERUN_FIXTURES) + "/logs/fixture_status_oom.log",
                  logs() + "/log_l2l_l-78_hs-2048_bs-4_ws-4_2022-06-29.1656464452.txt");
    std::ofstream(logs() + "/README.md") << "not a log\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string logs() const { return (dir_ / "results").string(); }
  std::vector<IngestedFile> ingest(aerun::Store& store, unsigned jobs = 1) {
    aerun::IngestOptions o;
    o.jobs = jobs;
    o.name_template = "log_{method}_l-{layers}_hs-{hidden}_bs-{batch}_ws-{window}_{date}.txt";
    o.assume_complete = true;  // the fixture logs are seed excerpts of finished runs
    return aerun::ingest_paths(store, spec_, {logs()}, o);
  }
  static int count(const std::vector<IngestedFile>& f, IngestedFile::Action a) {
    return static_cast<int>(
        std::count_if(f.begin(), f.end(), [&](auto& x) { return x.action == a; }));
  }

  fs::path dir_;
  aerun::CaseSpec spec_;
};

}  // namespace

TEST_F(IngestFolder, StoresEachMatchingLogAsARunWithTypedParameters) {
  aerun::Store store((dir_ / "a.db").string());
  const auto files = ingest(store);
  EXPECT_EQ(count(files, IngestedFile::Action::Added), 3);
  EXPECT_EQ(count(files, IngestedFile::Action::Skipped), 1);  // README.md
  // Natural order: ws-2 before ws-10 (seed 002's sort put ws-10 first).
  EXPECT_THAT(files[2].path, testing::HasSubstr("ws-2_"));
  EXPECT_THAT(files[3].path, testing::HasSubstr("ws-10_"));
  aerun::RunFilter f;
  f.case_name = "fig9";
  const auto runs = store.list(f);
  ASSERT_EQ(runs.size(), 3u);
  for (const auto& r : runs) {
    EXPECT_EQ(r.key, aerun::ingest_key("fig9", r.log_path));
    EXPECT_EQ(aerun::find_param(r.params, "layers")->kind(), aerun::Value::Kind::Int);
    if (aerun::find_param(r.params, "method")->text() == "l2l") {
      EXPECT_EQ(r.status, "oom");
      EXPECT_THAT(r.reason, testing::StartsWith("line 9: torch.cuda.OutOfMemoryError"));
    } else {
      EXPECT_EQ(r.status, "ok");
      const auto* sps = r.metric("sh_samples_per_s");
      ASSERT_NE(sps, nullptr);
      EXPECT_NEAR(sps->value, (0.6609623921101718 + 0.3978897491463718) / 2, 1e-12);
      EXPECT_EQ(sps->source_line, 7);  // traceable: the last SamplesPerSecond line
    }
  }
}

TEST_F(IngestFolder, ReIngestingUnchangedFilesChangesNothing) {
  aerun::Store store((dir_ / "a.db").string());
  ingest(store);
  const auto before = store.list({});
  const auto again = ingest(store);
  EXPECT_EQ(count(again, IngestedFile::Action::Unchanged), 3);
  EXPECT_EQ(count(again, IngestedFile::Action::Added), 0);
  const auto after = store.list({});
  ASSERT_EQ(after.size(), before.size());
  for (size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].id, before[i].id);
    EXPECT_EQ(after[i].attempt, 1);
  }
}

TEST_F(IngestFolder, AChangedFileUpdatesItsRun) {
  aerun::Store store((dir_ / "a.db").string());
  ingest(store);
  const std::string oom = logs() + "/log_l2l_l-78_hs-2048_bs-4_ws-4_2022-06-29.1656464452.txt";
  const std::string key = aerun::ingest_key("fig9", oom);
  const long long id = store.find_by_key(key)->id;
  // The run was resumed and now trains past the OOM point: a new log content.
  fs::copy_file(std::string(AERUN_FIXTURES) + "/logs/fixture_stronghold_offload.log", oom,
                fs::copy_options::overwrite_existing);
  const auto files = ingest(store);
  EXPECT_EQ(count(files, IngestedFile::Action::Updated), 1);
  EXPECT_EQ(count(files, IngestedFile::Action::Unchanged), 2);
  const auto r = store.find_by_key(key);
  EXPECT_EQ(r->id, id);
  EXPECT_EQ(r->attempt, 2);
  EXPECT_EQ(r->status, "ok");
  EXPECT_EQ(r->log_size, static_cast<long long>(fs::file_size(oom)));
}

TEST_F(IngestFolder, ALogWithoutIterationsIsNoProgress) {
  const auto r = aerun::ingest_file(
      spec_, std::string(AERUN_FIXTURES) + "/logs/fixture_status_no_progress.log", {});
  EXPECT_EQ(r.status, "no_progress");
  EXPECT_TRUE(r.metrics.empty());
}

TEST_F(IngestFolder, AMissingPathIsAnInputError) {
  aerun::Store store((dir_ / "a.db").string());
  EXPECT_THROW(aerun::ingest_paths(store, spec_, {logs() + "/nope"}, {}), aerun::InputError);
}

TEST_F(IngestFolder, ReadingOnSeveralThreadsStoresTheSameRunsInTheSameOrder) {
  // 40 more logs (the offload log, as ws-100..ws-139), so the threads really share the work.
  const std::string stronghold =
      std::string(AERUN_FIXTURES) + "/logs/fixture_stronghold_offload.log";
  for (int w = 100; w < 140; ++w)
    fs::copy_file(stronghold, logs() + "/log_stronghold_l-32_hs-2048_bs-4_ws-" + std::to_string(w) +
                                  "_2022-06-29.1656476815.txt");
  aerun::Store one((dir_ / "one.db").string());
  aerun::Store four((dir_ / "four.db").string());
  const auto a = ingest(one, 1);
  const auto b = ingest(four, 4);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].path, b[i].path);
    EXPECT_EQ(a[i].action, b[i].action);
    EXPECT_EQ(a[i].status, b[i].status);
  }
  const auto ra = one.list({}), rb = four.list({});
  ASSERT_EQ(ra.size(), 43u);
  ASSERT_EQ(rb.size(), ra.size());
  for (size_t i = 0; i < ra.size(); ++i) {  // same ids, keys, values, line numbers
    EXPECT_EQ(ra[i].id, rb[i].id);
    EXPECT_EQ(ra[i].key, rb[i].key);
    EXPECT_EQ(ra[i].status, rb[i].status);
    EXPECT_EQ(ra[i].log_sha256, rb[i].log_sha256);
    ASSERT_EQ(ra[i].metrics.size(), rb[i].metrics.size());
    for (size_t m = 0; m < ra[i].metrics.size(); ++m) {
      EXPECT_EQ(ra[i].metrics[m].value, rb[i].metrics[m].value);
      EXPECT_EQ(ra[i].metrics[m].source_line, rb[i].metrics[m].source_line);
    }
  }
  EXPECT_EQ(count(ingest(four, 4), IngestedFile::Action::Unchanged), 43);
}

TEST_F(IngestFolder, AnUnreadableFileStopsTheWalkAfterStoringTheFilesBeforeIt) {
  // ws-5 is listed by the walk, then cannot be read: it is gone when its turn comes (removed
  // under ingest; a chmod would not stop root, and a link to /proc/self/mem, which this test
  // used, is now skipped as a kernel interface). Natural order: l2l, ws-2, ws-5, ws-10.
  const std::string ws5 = logs() + "/log_stronghold_l-32_hs-2048_bs-4_ws-5_2022-06-29.1.txt";
  fs::copy_file(std::string(AERUN_FIXTURES) + "/logs/fixture_stronghold_offload.log", ws5);
  aerun::Store store((dir_ / "a.db").string());
  aerun::IngestOptions o;
  o.jobs = 1;
  o.name_template = "log_{method}_l-{layers}_hs-{hidden}_bs-{batch}_ws-{window}_{date}.txt";
  o.assume_complete = true;
  o.progress = [&](const char* phase, size_t, size_t) {
    if (std::string(phase) == "read") fs::remove(ws5);
  };
  EXPECT_THROW(aerun::ingest_paths(store, spec_, {logs()}, o), aerun::SystemError);
  std::vector<std::string> windows;
  for (const auto& r : store.list({}))
    windows.push_back(aerun::find_param(r.params, "window")->text());
  std::sort(windows.begin(), windows.end());
  EXPECT_EQ(windows, (std::vector<std::string>{"2", "4"}));  // l2l (ws-4) and ws-2, not ws-10
}

TEST_F(IngestFolder, ALinkToAKernelInterfaceIsSkippedAndNamedNotRead) {
  // Issue 40: a link in the folder to /proc/self/environ (the process's secrets) was ingested.
  fs::create_symlink("/proc/self/environ",
                     logs() + "/log_stronghold_l-32_hs-2048_bs-4_ws-5_2022-06-29.1.txt");
  aerun::Store store((dir_ / "a.db").string());
  const auto files = ingest(store);
  EXPECT_EQ(store.list({}).size(), 3u);
  EXPECT_TRUE(std::any_of(files.begin(), files.end(), [](const IngestedFile& f) {
    return f.path.ends_with("ws-5_2022-06-29.1.txt") &&
           f.why.find("kernel interface") != std::string::npos;
  }));
}

TEST_F(IngestFolder, TheStoreInTheFolderIsNotTakenForALog) {
  // The default store lives in results/, next to logs: ingesting results/ must skip it (and its
  // -wal and -shm files, which exist while it is open).
  aerun::Store store(logs() + "/aerun.db");
  aerun::IngestOptions o;
  o.jobs = 2;
  const auto files = aerun::ingest_paths(store, spec_, {logs()}, o);  // no template: every file
  int store_files = 0;
  for (const auto& f : files)
    if (f.why == "the results store itself") {
      ++store_files;
      EXPECT_EQ(f.action, IngestedFile::Action::Skipped);
    }
  EXPECT_GE(store_files, 1);
  EXPECT_EQ(count(files, IngestedFile::Action::Added), 4);  // the 3 logs and README.md
}

// Issue 28: a million small logs took 3.3 GB, every run (metrics, series) held until the last
// file was read. Files now go through in batches: the first is stored, and handed on, before the
// last is read.
TEST_F(IngestFolder, FilesAreStoredAndHandedOnInBatchesNotAllHeldToTheEnd) {
  const std::string many = (dir_ / "many").string();
  fs::create_directories(many);
  const std::string text = " iteration        1/       2 | elapsed time per iteration (ms): 10.0 |\n";
  for (int i = 0; i < 2500; ++i)
    std::ofstream(many + "/" + std::to_string(i) + ".log") << text;
  aerun::Store store(":memory:");
  aerun::IngestOptions o;
  o.jobs = 2;
  size_t read_so_far = 0, read_at_first = 0, handed = 0;
  o.progress = [&](const char* phase, size_t done, size_t) {
    if (std::string(phase) == "read") read_so_far = std::max(read_so_far, done);
  };
  aerun::ingest_paths(store, spec_, {many}, o, [&](const IngestedFile& f) {
    if (handed++ == 0) read_at_first = read_so_far;
    EXPECT_EQ(f.action, IngestedFile::Action::Added) << f.path;
  });
  EXPECT_EQ(handed, 2500u);
  EXPECT_LT(read_at_first, 2000u);  // the first batch was stored before the rest was read
  EXPECT_EQ(store.list({}).size(), 2500u);
}
