// The system a run ran on, in the store (issue 41): part of its key, kept with every attempt, and
// given by the schema v15 migration to the rows stored before, from their host names.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/record/system_key.hpp"
#include "aerun/store/store.hpp"
#include "store_folder_test.hpp"

namespace {

using aerun::key_on_system;
using aerun::RunRecord;
using aerun::Store;

class StoreSystems : public aerun::testing::StoreFolderTest {
 protected:
  void TearDown() override {
    Store::set_system_of_host(nullptr);
    StoreFolderTest::TearDown();
  }
};

RunRecord run_on(const std::string& system, double end) {
  RunRecord r;
  r.key = key_on_system("k", system);
  r.case_name = "startup";
  r.system = system;
  r.host = system + "-login1";
  r.status = "ok";
  r.launch_time = end - 10;
  r.end_time = end;
  r.metrics.push_back({"startup_s", end / 1e8, "s", 1, 3});
  return r;
}

TEST(SystemKey, OnNoSystemARunKeepsTheKeyItAlwaysHadAndOnEachSystemItHasItsOwn) {
  EXPECT_EQ(key_on_system("abc", ""), "abc");
  EXPECT_NE(key_on_system("abc", "polaris"), "abc");
  EXPECT_NE(key_on_system("abc", "polaris"), key_on_system("abc", "aurora"));
  EXPECT_EQ(key_on_system("abc", "polaris"), key_on_system("abc", "polaris"));
  EXPECT_EQ(key_on_system("abc", "polaris").size(), 64u);
  // Length-prefixed: the key and the system cannot trade characters.
  EXPECT_NE(key_on_system("ab", "cpolaris"), key_on_system("abc", "polaris"));
}

TEST_F(StoreSystems, EachAttemptKeepsItsSystem) {
  Store s(path_);
  s.finish_run(run_on("polaris", 1.7e9));
  auto again = run_on("polaris", 1.8e9);
  s.begin_run(again);
  s.finish_run(again);
  const auto r = s.find_by_key(key_on_system("k", "polaris"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->system, "polaris");
  const auto attempts = s.all_attempts("startup");
  ASSERT_EQ(attempts.size(), 2u);
  for (const auto& a : attempts) EXPECT_EQ(a.system, "polaris");
}

TEST_F(StoreSystems, TheSamePointOnTwoSystemsMergedIntoOneStoreIsTwoRunsBothCurrent) {
  const std::string other = (dir_ / "aurora.db").string();
  {
    Store polaris(path_);
    polaris.finish_run(run_on("polaris", 1.7e9));
    Store aurora(other);
    aurora.finish_run(run_on("aurora", 1.8e9));  // later: once it replaced polaris's
  }
  Store into(path_);
  {
    const Store from(other, Store::ReadOnly{});
    for (const auto& r : from.all_attempts("startup")) EXPECT_TRUE(into.import_attempt(r));
  }
  const auto runs = into.list(aerun::RunFilter::of_case("startup"));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].system, "polaris");
  EXPECT_EQ(runs[1].system, "aurora");
  EXPECT_EQ(runs[0].metric("startup_s")->value, 17);
  EXPECT_EQ(runs[1].metric("startup_s")->value, 18);
  EXPECT_EQ(into.all_attempts("startup").size(), 2u);  // nothing pushed into the history
}

TEST_F(StoreSystems, RowsOfBeforeSystemsGetTheSystemTheirHostNamesSayAndTheirKeyThere) {
  // A store as aerun wrote it before systems (schema v14): a run of a Polaris login node with an
  // earlier attempt, one of a laptop no profile names, and a batch job still pending on Polaris.
  ASSERT_NO_FATAL_FAILURE(write_old_store(
      14,
      "INSERT INTO runs(key, case_name, status, created_at, updated_at, host) VALUES"
      "('k1', 'c', 'ok', 1.7e9, 1.7e9, 'polaris-login-02'),"
      "('k2', 'c', 'ok', 1.7e9, 1.7e9, 'laptop'),"
      "('k3', 'c', 'pending', 1.7e9, 1.7e9, 'polaris-login-02');"
      "INSERT INTO run_history(run_id, attempt, status, host, archived_at) VALUES"
      "(1, 1, 'failed', 'polaris-login-01', 1.6e9);"));
  std::vector<std::string> asked;
  Store::set_system_of_host([&asked](const std::string& host) {
    asked.push_back(host);
    return host.starts_with("polaris-login") ? std::string("polaris") : std::string();
  });
  Store s(path_);
  EXPECT_EQ(s.schema_version(), Store::latest_schema_version());
  EXPECT_THAT(asked, testing::UnorderedElementsAre("polaris-login-01", "polaris-login-02",
                                                   "laptop"));  // each host once
  EXPECT_FALSE(s.find_by_key("k1"));
  const auto polaris = s.find_by_key(key_on_system("k1", "polaris"));
  ASSERT_TRUE(polaris);
  EXPECT_EQ(polaris->system, "polaris");
  const auto laptop = s.find_by_key("k2");
  ASSERT_TRUE(laptop);
  EXPECT_EQ(laptop->system, "");
  const auto pending = s.find_by_key("k3");  // its job reports by the key it was given
  ASSERT_TRUE(pending);
  EXPECT_EQ(pending->system, "");
  EXPECT_EQ(query_text("SELECT system FROM run_history"), "polaris");
}

TEST_F(StoreSystems, WithoutProfilesRowsOfBeforeSystemsKeepTheirKeysAndNoSystem) {
  ASSERT_NO_FATAL_FAILURE(write_old_store(
      14,
      "INSERT INTO runs(key, case_name, status, created_at, updated_at, host) VALUES"
      "('k1', 'c', 'ok', 1.7e9, 1.7e9, 'polaris-login-02');"));
  Store s(path_);
  const auto r = s.find_by_key("k1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->system, "");
}

}  // namespace
