// Environment records in the store: each text once, each record once, read back as saved.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>

#include "aerun/store/store.hpp"
#include "store_folder_test.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;

class EnvRecordStore : public aerun::testing::StoreFolderTest {
 protected:
  long long count(const std::string& table) {
    return std::stoll(query_text("SELECT count(*) FROM " + table));
  }
};

EnvRecord night(const std::string& torch) {
  EnvRecord r;
  r.items = {{"kernel", "", "Linux 6.1.0 x86_64"},
             {"environment", "", "OMP_NUM_THREADS=8\nHF_TOKEN=<redacted>"},
             {"pip freeze", "", "numpy==1.26.4\ntorch==" + torch},
             {"provenance nccl", "exit code 127", "sh: nccl-tests: not found"},
             {"git diff", "", std::string("binary\0bytes\xff", 13)}};
  return r;
}

TEST_F(EnvRecordStore, ARecordReadsBackAsSavedTextsWithNulBytesIncluded) {
  Store s(path_);
  const EnvRecord rec = night("2.1.0");
  const std::string digest = s.save_env_record(rec);
  EXPECT_EQ(digest.size(), 64u);
  const auto back = s.env_record(digest);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, rec);
  EXPECT_FALSE(s.env_record(std::string(64, '0')));
}

TEST_F(EnvRecordStore, TheSameRecordIsStoredOnceAndSharedTextsOnce) {
  {
    Store s(path_);
    const std::string a = s.save_env_record(night("2.1.0"));
    EXPECT_EQ(s.save_env_record(night("2.1.0")), a);  // saved again: the same row
    const std::string b = s.save_env_record(night("2.2.0"));
    EXPECT_NE(a, b);
  }
  EXPECT_EQ(count("env_records"), 2);
  EXPECT_EQ(count("env_record_items"), 10);
  EXPECT_EQ(count("env_texts"), 6);  // five texts, one of them (pip freeze) twice
}

TEST_F(EnvRecordStore, TheDigestIsTheSameInAnotherStoreSoMergesKeepOneRecord) {
  Store s(path_);
  Store other((dir_ / "other.db").string());
  EXPECT_EQ(s.save_env_record(night("2.1.0")), other.save_env_record(night("2.1.0")));
  // A part's status is part of what the record is.
  EnvRecord failed = night("2.1.0");
  failed.items[3].status = "timed out after 30 s";
  EXPECT_NE(s.save_env_record(failed), s.save_env_record(night("2.1.0")));
}

TEST_F(EnvRecordStore, ASessionNamesItsRecordAndAContinuedSessionKeepsItsFirst) {
  Store s(path_);
  SessionInfo info;
  info.label = "night-1";
  info.kind = "case";
  info.env_record = s.save_env_record(night("2.1.0"));
  const long long id = s.open_session(info);
  EXPECT_EQ(s.find_session("night-1")->env_record, info.env_record);
  SessionInfo again = info;
  again.env_record = s.save_env_record(night("2.2.0"));
  EXPECT_EQ(s.open_session(again), id);
  EXPECT_EQ(s.find_session("night-1")->env_record, info.env_record);
}

}  // namespace
}  // namespace aerun
