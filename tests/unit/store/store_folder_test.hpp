// The fixture of the store's unit tests: a fresh folder per test, removed afterwards, and the path
// of the store file in it.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "store/migrations.hpp"

namespace aerun::testing {

class StoreFolderTest : public ::testing::Test {
 protected:
  // store_name: the store's path inside the folder ("nested/results.db": a folder to create).
  explicit StoreFolderTest(std::string store_name = "results.db")
      : store_name_(std::move(store_name)) {}

  void SetUp() override {
    char tmpl[] = "/tmp/aerun-store-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = (dir_ / store_name_).string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes the store file as an older aerun left it: its migrations up to `version`, its
  // user_version, then `sql` (its rows). Opening it with a Store migrates it. Call it through
  // ASSERT_NO_FATAL_FAILURE.
  void write_old_store(int version, const std::string& sql) {
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path());
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    for (const auto& m : aerun::store_migrations()) {
      if (m.version > version) continue;
      ASSERT_EQ(sqlite3_exec(db, std::string(m.sql).c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    }
    const std::string rows = "PRAGMA user_version=" + std::to_string(version) + ";" + sql;
    const int rc = sqlite3_exec(db, rows.c_str(), nullptr, nullptr, nullptr);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK);
  }

  // Column `column` of the first row sql gives in the store file, as text ("" without a row).
  std::string query_text(const std::string& sql, int column = 0) const {
    sqlite3* db = nullptr;
    sqlite3_stmt* st = nullptr;
    std::string out;
    if (sqlite3_open(path_.c_str(), &db) != SQLITE_OK ||
        sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
      ADD_FAILURE() << "cannot query " << path_ << ": " << sqlite3_errmsg(db);
    else if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, column))
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, column));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
  }

  std::filesystem::path dir_;
  std::string path_;

 private:
  std::string store_name_;
};

}  // namespace aerun::testing
