#include "aerun/store/store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "aerun/util/error.hpp"
#include "aerun/util/process_identity.hpp"
#include "aerun/util/sha256.hpp"
#include "store/migrations.hpp"
#include "store_folder_test.hpp"

using aerun::process_start_ticks;
using aerun::RunFilter;
using aerun::RunRecord;
using aerun::self_identity;
using aerun::Store;
using aerun::Value;

namespace fs = std::filesystem;

namespace {

// The store one folder down, which the Store creates.
class StoreTest : public aerun::testing::StoreFolderTest {
 protected:
  StoreTest() : StoreFolderTest("nested/results.db") {}
};

RunRecord make_run(const std::string& key, const std::string& case_name = "fig8b") {
  RunRecord r;
  r.key = key;
  r.case_name = case_name;
  r.case_file = "/cases/" + case_name + ".yaml";
  r.repeat_index = 2;
  r.command = "bash examples/run.sh --layers 32 --method 'stronghold'";
  r.workdir = "/home/sys/STRONGHOLD";
  r.params = {{"method", Value::parse("stronghold")},
              {"layers", Value::parse("32")},
              {"lr", Value::parse("1e-3")},
              {"offload", Value::parse("true")}};
  r.env = {{"CUDA_VISIBLE_DEVICES", Value::parse("0")}, {"OMP_NUM_THREADS", Value::parse("8")}};
  r.launch_time = 1656464109.25;
  r.host = "node17";
  r.aerun_version = "0.1.0";
  r.git_commit = "657bb3e312e793d7b503f475b59e44c1aee44205";
  r.runner_pid = ::getpid();
  r.log_path = "/logs/" + key + ".log";
  return r;
}

RunRecord finished(RunRecord r) {
  r.status = "ok";
  r.reason = "exit code 0";
  r.first_output_time = 1656464110.5;
  r.startup_time = 1656464150.0;
  r.end_time = 1656464409.75;
  r.startup_s = 40.75;
  r.wall_s = 300.5;
  r.exit_code = 0;
  r.user_cpu_s = 280.25;
  r.sys_cpu_s = 12.5;
  r.max_rss_kb = 10359839;
  r.log_size = 103731;
  r.log_sha256 = std::string(64, 'a');
  r.metrics = {{"iter_ms", 8052.4, "ms", 6, 37}, {"lm_loss", 11.34986, "", 6, 37}};
  r.series = {{"loss", {{0, 3.15431, 6}, {1, 2.660851, 7}, {2, 2.543283, 8}}},
              {"iter_ms", {{0, 6051.8, 16}, {1, 10053.0, 20}}}};
  return r;
}

pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);  // reaped: the pid no longer exists
  return child;
}

bool keep_ok(const RunRecord& found) {
  const std::string& status = found.status;
  return status == "ok";
}
bool keep_nothing(const RunRecord&) {
  return false;
}

// Runs SQL on the store's file from outside the Store (what another process would see).
void sqlite3_exec_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

}  // namespace

TEST_F(StoreTest, CreatesParentDirectoriesAndTheLatestSchema) {
  Store s(path_);
  EXPECT_TRUE(fs::exists(path_));
  EXPECT_EQ(s.schema_version(), Store::latest_schema_version());
  EXPECT_GE(s.schema_version(), 1);
}

TEST_F(StoreTest, FullRunRecordRoundTrips) {
  Store s(path_);
  const RunRecord begun = make_run("3aa7a239d9b7bc9e");
  const long long id = s.begin_run(begun);
  EXPECT_GT(id, 0);
  const RunRecord in = finished(begun);
  s.finish_run(in);

  auto out = s.find_by_key("3aa7a239d9b7bc9e");
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->id, id);
  EXPECT_EQ(out->key, in.key);
  EXPECT_EQ(out->case_name, "fig8b");
  EXPECT_EQ(out->case_file, "/cases/fig8b.yaml");
  EXPECT_EQ(out->repeat_index, 2);
  EXPECT_EQ(out->attempt, 1);
  EXPECT_EQ(out->status, "ok");
  EXPECT_EQ(out->reason, "exit code 0");
  EXPECT_EQ(out->command, in.command);
  EXPECT_EQ(out->workdir, in.workdir);
  EXPECT_EQ(out->params, in.params);
  EXPECT_EQ(out->params[1].second.kind(), Value::Kind::Int);
  EXPECT_EQ(out->params[2].second.kind(), Value::Kind::Float);
  EXPECT_EQ(out->params[3].second.kind(), Value::Kind::Bool);
  EXPECT_EQ(out->env, in.env);
  EXPECT_EQ(out->launch_time, in.launch_time);
  EXPECT_EQ(out->first_output_time, in.first_output_time);
  EXPECT_EQ(out->startup_time, in.startup_time);
  EXPECT_EQ(out->end_time, in.end_time);
  EXPECT_EQ(out->startup_s, in.startup_s);
  EXPECT_EQ(out->wall_s, in.wall_s);
  EXPECT_EQ(out->exit_code, 0);
  EXPECT_FALSE(out->signal.has_value());
  EXPECT_EQ(out->user_cpu_s, 280.25);
  EXPECT_EQ(out->sys_cpu_s, 12.5);
  EXPECT_EQ(out->max_rss_kb, 10359839);
  EXPECT_EQ(out->host, "node17");
  EXPECT_EQ(out->aerun_version, "0.1.0");
  EXPECT_EQ(out->git_commit, in.git_commit);
  EXPECT_EQ(out->runner_pid, ::getpid());
  EXPECT_EQ(out->log_path, in.log_path);
  EXPECT_EQ(out->log_size, 103731);
  EXPECT_EQ(out->log_sha256, in.log_sha256);
  ASSERT_EQ(out->metrics.size(), 2u);
  EXPECT_EQ(out->metrics[0].name, "iter_ms");
  EXPECT_EQ(out->metrics[0].value, 8052.4);
  EXPECT_EQ(out->metrics[0].unit, "ms");
  EXPECT_EQ(out->metrics[0].count, 6);
  EXPECT_EQ(out->metrics[0].source_line, 37);
  EXPECT_EQ(out->metric("lm_loss")->value, 11.34986);
  ASSERT_EQ(out->series.size(), 2u);
  EXPECT_EQ(out->series[0].name, "loss");
  ASSERT_EQ(out->series[0].points.size(), 3u);
  EXPECT_EQ(out->series[0].points[2].index, 2);
  EXPECT_EQ(out->series[0].points[2].value, 2.543283);
  EXPECT_EQ(out->series[0].points[2].source_line, 8);
  EXPECT_EQ(out->series[1].points[1].value, 10053.0);
}

TEST_F(StoreTest, BeginRunClaimsARunAsRunning) {
  Store s(path_);
  s.begin_run(make_run("k-running"));
  auto r = s.find_by_key("k-running");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, "running");
  EXPECT_EQ(r->attempt, 1);
  EXPECT_TRUE(r->metrics.empty());
  EXPECT_FALSE(r->end_time.has_value());
}

TEST_F(StoreTest, BeginRunOnAnExistingKeyIncrementsAttemptAndClearsOldResults) {
  Store s(path_);
  const long long id = s.begin_run(make_run("retry-key"));
  auto failed = finished(make_run("retry-key"));
  failed.status = "oom";
  failed.reason = "torch.cuda.OutOfMemoryError: CUDA out of memory.";
  failed.exit_code = 1;
  s.finish_run(failed);

  auto again = make_run("retry-key");
  again.params.pop_back();
  EXPECT_EQ(s.begin_run(again), id);
  auto r = s.find_by_key("retry-key");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->attempt, 2);
  EXPECT_EQ(r->status, "running");
  EXPECT_EQ(r->reason, "");
  EXPECT_FALSE(r->exit_code.has_value());
  EXPECT_FALSE(r->end_time.has_value());
  EXPECT_TRUE(r->metrics.empty());
  EXPECT_TRUE(r->series.empty());
  EXPECT_EQ(r->params.size(), 3u);
}

TEST_F(StoreTest, FindsByIdFullKeyAndUniquePrefix) {
  Store s(path_);
  const long long a = s.begin_run(make_run("ce87409108880a62"));
  const long long b = s.begin_run(make_run("ce87aaaa00000000"));
  const long long c = s.begin_run(make_run("13ce818cca9ca087"));
  EXPECT_EQ(s.find(std::to_string(b))->id, b);
  EXPECT_EQ(s.find("ce87409108880a62")->id, a);
  EXPECT_EQ(s.find("13ce8")->id, c);
  EXPECT_EQ(s.find("ce874")->id, a);
  EXPECT_FALSE(s.find("ffff").has_value());
  EXPECT_FALSE(s.find("ce8").has_value());  // a prefix needs 4 characters
  EXPECT_FALSE(s.find("999").has_value());
}

TEST_F(StoreTest, AnIdWinsOverADigitKeyPrefixButAnUnknownIdFallsBackToThePrefix) {
  Store s(path_);
  const long long first = s.begin_run(make_run("aaaa0000"));
  const long long digits = s.begin_run(make_run("1234abcd"));
  EXPECT_EQ(s.find(std::to_string(first))->key, "aaaa0000");
  EXPECT_EQ(s.find("1234")->id, digits);
}

TEST_F(StoreTest, AmbiguousPrefixIsAnInputErrorListingTheKeys) {
  Store s(path_);
  s.begin_run(make_run("ce87409108880a62"));
  s.begin_run(make_run("ce87aaaa00000000"));
  try {
    s.find("ce87");
    FAIL() << "no error";
  } catch (const aerun::InputError& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("'ce87' is ambiguous"));
    EXPECT_THAT(e.what(), testing::HasSubstr("ce87409108880a62"));
    EXPECT_THAT(e.what(), testing::HasSubstr("ce87aaaa00000000"));
  }
}

TEST_F(StoreTest, ListFiltersByCaseStatusAndKeyPrefixOrderedByCaseThenId) {
  Store s(path_);
  s.begin_run(make_run("k1", "table3"));
  s.begin_run(make_run("k2", "fig8b"));
  s.begin_run(make_run("k3", "fig8b"));
  s.finish_run(finished(make_run("k3", "fig8b")));
  s.begin_run(make_run("x4", "table3"));

  auto all = s.list({});
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].key, "k2");
  EXPECT_EQ(all[1].key, "k3");
  EXPECT_EQ(all[2].key, "k1");
  EXPECT_EQ(all[3].key, "x4");
  EXPECT_EQ(all[1].metrics.size(), 2u);
  EXPECT_EQ(all[1].series.size(), 2u);
  EXPECT_EQ(all[0].params.size(), 4u);
  EXPECT_EQ(all[0].env.size(), 2u);

  EXPECT_EQ(s.list({"table3", "", ""}).size(), 2u);
  auto ok = s.list({"", "ok", ""});
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].key, "k3");
  EXPECT_EQ(s.list({"table3", "running", "k"}).size(), 1u);
  EXPECT_TRUE(s.list({"fig8b", "oom", ""}).empty());
}

// The children of many runs are read in bulk and merged by run id: each run gets exactly its
// own, in their order, whatever runs (and runs without children) lie between.
TEST_F(StoreTest, ForEachGivesEveryRunItsOwnChildrenInOrderAndStopsWhenAsked) {
  Store s(path_);
  for (int i = 0; i < 50; ++i) {
    RunRecord r = make_run("k" + std::to_string(i), i % 3 == 0 ? "a" : "b");
    r.params = {{"z", Value::parse(std::to_string(i))}, {"a", Value::parse("x")}};
    if (i % 7 == 0) r.params.clear();
    s.begin_run(r);
    if (i % 2 == 0) {
      RunRecord f = finished(r);
      f.metrics = {{"m" + std::to_string(i % 4), static_cast<double>(i), "", 1, 1},
                   {"b_first", 1.0, "", 1, 2}};
      s.finish_run(f);
    }
  }
  std::vector<std::string> seen;
  s.for_each({}, [&](RunRecord& r) {
    const int i = std::stoi(r.key.substr(1));
    seen.push_back(r.key);
    if (i % 7 == 0) {
      EXPECT_TRUE(r.params.empty()) << r.key;
    } else {
      EXPECT_EQ(r.params.size(), 2u) << r.key;
      EXPECT_EQ(r.params[0].first, "z");  // in their written order, not by name
      EXPECT_EQ(r.params[0].second.text(), std::to_string(i));
    }
    if (i % 2 == 0) {
      EXPECT_EQ(r.metrics.size(), 2u) << r.key;
      EXPECT_EQ(r.metrics[0].value, i);
      EXPECT_EQ(r.series.size(), 2u);
    } else {
      EXPECT_TRUE(r.metrics.empty()) << r.key;
    }
    return true;
  });
  ASSERT_EQ(seen.size(), 50u);
  EXPECT_EQ(seen[0], "k0");   // case a first, by id
  EXPECT_EQ(seen[17], "k1");  // then case b
  int calls = 0;
  s.for_each({"b", "", ""}, [&](RunRecord&) { return ++calls < 3; });
  EXPECT_EQ(calls, 3);
  RunFilter light;
  light.with_env = false;
  light.with_series = false;
  s.for_each(light, [&](RunRecord& r) {
    EXPECT_TRUE(r.env.empty());
    EXPECT_TRUE(r.series.empty());
    return true;
  });
}

TEST_F(StoreTest, TheOutlineNamesParametersAndMetricsInOrderOfFirstAppearance) {
  Store s(path_);
  RunRecord r1 = make_run("k1", "b");
  r1.params = {{"y", Value::parse("1")}, {"x", Value::parse("2")}};
  s.finish_run(finished(r1));
  RunRecord r2 = make_run("k2", "a");
  r2.params = {{"w", Value::parse("1")}, {"y", Value::parse("3")}};
  RunRecord f2 = finished(r2);
  f2.metrics = {{"zeta", 1, "", 1, 1}, {"iter_ms", 2, "", 1, 2}};
  s.finish_run(f2);
  const Store::Outline o = s.outline({});
  EXPECT_EQ(o.params, (std::vector<std::string>{"w", "y", "x"}));  // case a, then b
  EXPECT_EQ(o.metrics, (std::vector<std::string>{"zeta", "iter_ms", "lm_loss"}));
  EXPECT_EQ(o.case_metrics.at("b"), (std::vector<std::string>{"iter_ms", "lm_loss"}));
  EXPECT_EQ(o.case_files.at("a"), (std::vector<std::string>{"/cases/a.yaml"}));
  EXPECT_EQ(o.runs, 2);
  EXPECT_EQ(s.outline({"b", "", ""}).params, (std::vector<std::string>{"y", "x"}));
}

// The usual case is answered from the first run that has names, checked against all the others;
// a later run with a name of its own, or a first run without metrics, keep the same order.
TEST_F(StoreTest, TheOutlineFindsNamesOnlyLaterRunsHave) {
  Store s(path_);
  RunRecord first = make_run("k1", "c");  // no metrics (still running)
  first.params = {{"b", Value::parse("1")}, {"a", Value::parse("1")}};
  s.begin_run(first);
  RunRecord second = make_run("k2", "c");
  second.params = {{"a", Value::parse("2")}, {"b", Value::parse("2")}};
  RunRecord f2 = finished(second);
  f2.metrics = {{"m2", 1, "", 1, 1}, {"m1", 1, "", 1, 1}};
  s.finish_run(f2);
  RunRecord third = make_run("k3", "c");
  third.params = {{"z", Value::parse("3")}, {"b", Value::parse("3")}};
  RunRecord f3 = finished(third);
  f3.metrics = {{"m1", 1, "", 1, 1}, {"m\"quoted\\", 2, "", 1, 1}};
  s.finish_run(f3);
  const Store::Outline o = s.outline({"c", "", ""});
  EXPECT_EQ(o.params, (std::vector<std::string>{"b", "a", "z"}));
  EXPECT_EQ(o.metrics, (std::vector<std::string>{"m2", "m1", "m\"quoted\\"}));
  EXPECT_EQ(o.runs, 3);
  // Only the first two: no name of the third.
  RunRecord fourth = make_run("k4", "d");
  fourth.params = {{"p", Value::parse("1")}};
  s.finish_run(finished(fourth));
  s.finish_run(finished(fourth));
  EXPECT_EQ(s.outline({"d", "", ""}).params, (std::vector<std::string>{"p"}));
  EXPECT_EQ(s.outline({"d", "", ""}).metrics, (std::vector<std::string>{"iter_ms", "lm_loss"}));
}

TEST_F(StoreTest, AKeyPrefixIsARangeOfTheKeyIndexEvenAtItsEdges) {
  Store s(path_);
  s.begin_run(make_run("ffff01"));
  s.begin_run(make_run("fffe02"));
  const std::string odd = std::string("ff") + '\xff' + "03";  // a byte 0xff inside a key
  s.begin_run(make_run(odd));
  EXPECT_EQ(s.find("ffff")->key, "ffff01");
  EXPECT_EQ(s.find("fffe")->key, "fffe02");
  EXPECT_FALSE(s.find("fffg"));
  EXPECT_EQ(s.find(odd.substr(0, 4))->key, odd);
  EXPECT_FALSE(s.find("\xff\xff\xff\xff"));
  EXPECT_EQ(s.list({"", "", "fff"}).size(), 2u);
  // The query plan: a search of the key's index, no scan of runs.
  EXPECT_THAT(
      query_text("EXPLAIN QUERY PLAN SELECT key FROM runs WHERE key >= ?1 AND key < ?2 LIMIT 6", 3),
      ::testing::HasSubstr("USING COVERING INDEX"));
}

TEST_F(StoreTest, ReapsRunningRowsWhoseAerunProcessIsGone) {
  Store s(path_);
  auto dead = make_run("orphan");
  dead.runner_pid = dead_pid();
  s.begin_run(dead);
  s.begin_run(make_run("alive"));  // this test process
  auto elsewhere = make_run("other-host");
  elsewhere.host = "node18";
  elsewhere.runner_pid = dead.runner_pid;
  s.begin_run(elsewhere);

  EXPECT_EQ(s.reap_orphans("node17"), 1);
  auto r = s.find_by_key("orphan");
  EXPECT_EQ(r->status, "stale");
  EXPECT_EQ(r->reason, "aerun process " + std::to_string(dead.runner_pid) + " disappeared");
  EXPECT_EQ(s.find_by_key("alive")->status, "running");
  EXPECT_EQ(s.find_by_key("other-host")->status, "running");
  EXPECT_EQ(s.reap_orphans("node17"), 0);
}

TEST_F(StoreTest, AClaimIsDecidedInsideItsTransaction) {
  Store s(path_);
  RunRecord mine = make_run("k");
  mine.host = self_identity().host;
  mine.runner_start = self_identity().start_ticks;
  // Nobody has it: claimed, attempt 1.
  Store::Claim c = s.claim_run(mine, keep_ok);
  EXPECT_EQ(c.outcome, Store::Claim::Outcome::Claimed);
  EXPECT_EQ(c.attempt, 1);
  // Another live process on this host (pid 1, with its real start time) holds it: busy.
  RunRecord other = mine;
  other.runner_pid = 1;
  other.runner_start = process_start_ticks(1);
  ASSERT_GT(other.runner_start, 0);
  EXPECT_EQ(s.claim_run(other, keep_ok).outcome, Store::Claim::Outcome::Busy);
  // Done by its owner: every later claim reuses it, unless forced.
  mine.status = "ok";
  mine.attempt = 1;
  ASSERT_TRUE(s.finish_run(mine));
  EXPECT_EQ(s.claim_run(other, keep_ok).outcome, Store::Claim::Outcome::Done);
  EXPECT_EQ(s.claim_run(other, keep_nothing).outcome, Store::Claim::Outcome::Claimed);
}

TEST_F(StoreTest, AClaimOfADeadOrReusedPidIsStaleAndTakenOver) {
  Store s(path_);
  RunRecord dead = make_run("k");
  dead.host = self_identity().host;
  dead.runner_pid = dead_pid();
  s.begin_run(dead);
  EXPECT_EQ(s.find_by_key("k")->status, "stale");
  // A pid that lives but belongs to a process started at another time (pid 1, not our start).
  RunRecord reused = make_run("r");
  reused.host = self_identity().host;
  reused.runner_pid = 1;
  reused.runner_start = process_start_ticks(1) + 12345;
  s.begin_run(reused);
  EXPECT_EQ(s.find_by_key("r")->status, "stale");
  EXPECT_THAT(s.find_by_key("r")->reason, testing::HasSubstr("disappeared"));

  RunRecord mine = make_run("k");
  mine.host = self_identity().host;
  mine.runner_start = self_identity().start_ticks;
  const Store::Claim c = s.claim_run(mine, keep_ok);
  EXPECT_EQ(c.outcome, Store::Claim::Outcome::Claimed);
  EXPECT_EQ(c.attempt, 2);
  // The first owner, had it lived, may not overwrite the new owner's run.
  dead.status = "ok";
  EXPECT_FALSE(s.finish_run(dead));
  EXPECT_EQ(s.find_by_key("k")->status, "running");
  mine.status = "ok";
  mine.attempt = 2;
  EXPECT_TRUE(s.finish_run(mine));
  EXPECT_EQ(s.find_by_key("k")->status, "ok");
}

TEST_F(StoreTest, ASilentClaimOfAnotherHostIsStaleAfterTheLimit) {
  Store s(path_);
  RunRecord far = make_run("k");
  far.host = "elsewhere";
  s.begin_run(far);
  EXPECT_EQ(s.find_by_key("k")->status, "running");  // its heartbeat is fresh
  sqlite3_exec_sql(path_, "UPDATE runs SET heartbeat = heartbeat - 301");
  EXPECT_EQ(s.find_by_key("k")->status, "stale");
  EXPECT_THAT(s.find_by_key("k")->reason, testing::HasSubstr("silent for 301 s"));
}

// Issue 28: an aerun stopped with Ctrl-Z for longer than the limit, or one whose heartbeat looks
// old after a clock jump, was taken over on its own host and its healthy run killed. On this host
// a live owner keeps its claim however long it was silent.
TEST_F(StoreTest, AClaimOfALiveProcessOnThisHostIsNeverStaleHoweverLongSilent) {
  Store s(path_);
  RunRecord other = make_run("k");
  other.host = self_identity().host;
  other.runner_pid = 1;  // alive, with its real start time
  other.runner_start = process_start_ticks(1);
  ASSERT_GT(other.runner_start, 0);
  s.begin_run(other);
  sqlite3_exec_sql(path_, "UPDATE runs SET heartbeat = heartbeat - 100000");
  EXPECT_EQ(s.find_by_key("k")->status, "running");
  RunRecord mine = make_run("k");
  mine.host = self_identity().host;
  mine.runner_start = self_identity().start_ticks;
  EXPECT_EQ(s.claim_run(mine, keep_ok).outcome, Store::Claim::Outcome::Busy);
}

// ... and one that was taken over learns it at its next heartbeat, to stop its copy at once.
TEST_F(StoreTest, AHeartbeatNamesTheRunsThisProcessNoLongerHolds) {
  Store s(path_);
  RunRecord mine = make_run("k");
  mine.host = self_identity().host;
  mine.runner_start = self_identity().start_ticks;
  const Store::Claim c = s.claim_run(mine, keep_ok);
  ASSERT_EQ(c.outcome, Store::Claim::Outcome::Claimed);
  EXPECT_THAT(s.heartbeat({c.id}), testing::IsEmpty());
  // Another aerun (on another host, which judged this one silent) took it over.
  sqlite3_exec_sql(path_, "UPDATE runs SET host='node18', runner_pid=4242, attempt=attempt+1");
  EXPECT_THAT(s.heartbeat({c.id}), testing::ElementsAre(c.id));
  mine.status = "ok";
  mine.attempt = c.attempt;
  EXPECT_FALSE(s.finish_run(mine));  // and its result is not written over theirs
}

// Issue 28: an aerun on a host whose clock ran 6 minutes ahead read a live claim's fresh heartbeat
// as 360 s old and took the run over. Another host's claim is taken over only once this host has
// seen its heartbeat stand still for the limit by its own clock.
TEST_F(StoreTest, AnotherHostsClaimIsTakenOverOnlyAfterThisHostSawItSilentForTheLimit) {
  Store s(path_);
  RunRecord far = make_run("k");
  far.host = "elsewhere";
  s.begin_run(far);
  sqlite3_exec_sql(path_, "UPDATE runs SET heartbeat = heartbeat - 360");  // our clock is ahead
  RunRecord mine = make_run("k");
  mine.host = self_identity().host;
  mine.runner_start = self_identity().start_ticks;
  EXPECT_EQ(s.claim_run(mine, keep_ok).outcome, Store::Claim::Outcome::Busy);
  // Its owner lives: the heartbeat moves; seen anew, still busy however long ago we first looked.
  sqlite3_exec_sql(path_,
                   "UPDATE runs SET heartbeat = heartbeat + 30;"
                   "UPDATE claim_watch SET first_seen = first_seen - 1000");
  EXPECT_EQ(s.claim_run(mine, keep_ok).outcome, Store::Claim::Outcome::Busy);
  // Its owner died: the same heartbeat for longer than the limit, by this host's clock.
  sqlite3_exec_sql(path_, "UPDATE claim_watch SET first_seen = first_seen - 301");
  const Store::Claim c = s.claim_run(mine, keep_ok);
  EXPECT_EQ(c.outcome, Store::Claim::Outcome::Claimed);
  EXPECT_EQ(c.attempt, 2);
}

// Issue 28: a trigger planted in a store (a merged or copied one) ran its SQL inside the next
// `aerun case`'s writes; a recursive view hung every reader. aerun creates neither: a store that
// holds one is refused, read-only too, before anything is read or written.
TEST_F(StoreTest, AStoreHoldingATriggerOrAViewAerunDidNotCreateIsRefused) {
  { Store s(path_); }
  sqlite3_exec_sql(path_,
                   "CREATE TRIGGER planted AFTER INSERT ON runs BEGIN DELETE FROM metrics; END;"
                   "CREATE VIEW loop AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 "
                   "FROM c) SELECT x FROM c;");
  for (bool read_only : {false, true}) {
    try {
      if (read_only)
        Store s(path_, Store::ReadOnly{});
      else
        Store s(path_);
      ADD_FAILURE() << "opened";
    } catch (const aerun::SystemError& e) {
      EXPECT_THAT(e.what(),
                  testing::HasSubstr("holds view 'loop', trigger 'planted' that aerun did "
                                     "not create"));
    }
  }
}

// AERUN_TEST_FILESYSTEM set for one test (the stand-in for statfs of a network file system).
struct TestFilesystem {
  explicit TestFilesystem(const char* v) { ::setenv("AERUN_TEST_FILESYSTEM", v, 1); }
  ~TestFilesystem() { ::unsetenv("AERUN_TEST_FILESYSTEM"); }
};

std::string journal_mode(const std::string& path) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, nullptr);
  std::string mode = sqlite3_step(st) == SQLITE_ROW
                         ? reinterpret_cast<const char*>(sqlite3_column_text(st, 0))
                         : "";
  sqlite3_finalize(st);
  sqlite3_close(db);
  return mode;
}

// Issue 28: WAL does not work over a network file system (sqlite.org/wal.html); users lost stores
// kept on Lustre, GPFS or NFS and reached from several login nodes.
TEST_F(StoreTest, OnANetworkFileSystemAStoreKeepsARollbackJournalEvenOneMadeInWalElsewhere) {
  { Store local(path_); }  // made on a local disk: WAL
  EXPECT_EQ(journal_mode(path_), "wal");
  const TestFilesystem lustre("lustre");
  {
    Store s(path_);
    s.begin_run(make_run("k"));
    EXPECT_EQ(s.find_by_key("k")->status, "running");
  }
  EXPECT_EQ(journal_mode(path_), "delete");
  EXPECT_FALSE(fs::exists(path_ + "-wal"));
}

TEST_F(StoreTest, OnANetworkFileSystemWithoutWorkingLocksTheStoreIsRefusedNamingTheWayOut) {
  const TestFilesystem nolock("nfs,nolock");
  try {
    Store s(path_);
    ADD_FAILURE() << "opened";
  } catch (const aerun::SystemError& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("is on nfs, which offers no working file locks"));
    EXPECT_THAT(e.what(), testing::HasSubstr("--db or AERUN_DB"));
    EXPECT_THAT(e.what(), testing::HasSubstr("aerun merge"));
  }
  EXPECT_FALSE(fs::exists(path_));  // nothing created
}

TEST_F(StoreTest, AWalStoreOpenOnAnotherHostIsRefusedAndACopiedOneIsThisHostsNow) {
  { Store s(path_); }
  sqlite3_exec_sql(path_, "UPDATE store_writer SET host='login2'");
  // Closed cleanly there (no -shm): a copy, this host's now.
  { Store s(path_); }
  // Open there now (its -shm beside it): the file system is shared but was not recognised.
  sqlite3_exec_sql(path_, "UPDATE store_writer SET host='login2'");
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &holder), SQLITE_OK);
  sqlite3_exec(holder, "SELECT count(*) FROM runs", nullptr, nullptr, nullptr);
  ASSERT_TRUE(fs::exists(path_ + "-shm"));
  try {
    Store s(path_);
    ADD_FAILURE() << "opened";
  } catch (const aerun::SystemError& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("is in WAL mode and open on host login2"));
  }
  sqlite3_close(holder);
}

// Issue 28: `aerun merge` migrated an older source store and switched it to WAL: another site's
// file changed its bytes. A source is now read as it is, or through a migrated private copy.
TEST_F(StoreTest, AStoreReadUntouchedKeepsEveryByteOlderSchemaOrNot) {
  ASSERT_NO_FATAL_FAILURE(write_old_store(11, ""));
  const std::string before = aerun::sha256_file(path_);
  const std::string scratch = (dir_ / "copy.db").string();
  {
    const Store s = Store::read_untouched(path_, scratch);
    EXPECT_EQ(s.schema_version(), Store::latest_schema_version());  // the copy, migrated
    EXPECT_EQ(s.attempts_without_case(), 0);
  }
  EXPECT_EQ(aerun::sha256_file(path_), before);
  EXPECT_EQ(journal_mode(path_), "delete");
  // A store of this aerun's schema is read where it is, read-only.
  fs::remove(path_);
  { Store s(path_); }
  const std::string current = aerun::sha256_file(path_);
  { const Store s = Store::read_untouched(path_, (dir_ / "copy2.db").string()); }
  EXPECT_EQ(aerun::sha256_file(path_), current);
  EXPECT_FALSE(fs::exists(dir_ / "copy2.db"));
}

TEST_F(StoreTest, OpeningTwiceDoesNotReapplyMigrations) {
  { Store first(path_); }
  Store second(path_);
  EXPECT_EQ(second.schema_version(), Store::latest_schema_version());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT count(*), max(applied_at) FROM schema_migrations", -1,
                               &st, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), Store::latest_schema_version());
  EXPECT_GT(sqlite3_column_double(st, 1), 1.6e9);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

TEST_F(StoreTest, RefusesAStoreWithANewerSchema) {
  { Store s(path_); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  const std::string bump =
      "PRAGMA user_version=" + std::to_string(Store::latest_schema_version() + 1);
  ASSERT_EQ(sqlite3_exec(db, bump.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  try {
    Store s(path_);
    FAIL() << "no error";
  } catch (const aerun::SystemError& e) {
    const int v = Store::latest_schema_version();
    EXPECT_THAT(e.what(),
                testing::HasSubstr("store schema v" + std::to_string(v + 1) +
                                   " is newer than this aerun (v" + std::to_string(v) + ")"));
  }
}

TEST_F(StoreTest, AFailingFinishRunLeavesEarlierDataIntact) {
  Store s(path_);
  s.begin_run(make_run("k"));
  s.finish_run(finished(make_run("k")));
  auto bad = finished(make_run("k"));
  bad.status = "failed";
  bad.metrics.push_back({"iter_ms", 1.0, "ms", 1, 1});  // duplicate name: primary key violation
  EXPECT_THROW(s.finish_run(bad), aerun::SystemError);
  auto r = s.find_by_key("k");
  EXPECT_EQ(r->status, "ok");
  ASSERT_EQ(r->metrics.size(), 2u);
  EXPECT_EQ(r->metric("iter_ms")->value, 8052.4);
  EXPECT_EQ(r->series.size(), 2u);
  // The store is still usable afterwards.
  s.begin_run(make_run("next"));
  EXPECT_TRUE(s.find_by_key("next").has_value());
}

TEST_F(StoreTest, AFailingBeginRunLeavesNoRow) {
  Store s(path_);
  auto bad = make_run("dup-params");
  bad.params.push_back({"layers", Value::parse("64")});
  EXPECT_THROW(s.begin_run(bad), aerun::SystemError);
  EXPECT_FALSE(s.find_by_key("dup-params").has_value());
}

TEST_F(StoreTest, FinishRunOfANeverBegunKeyInsertsTheWholeRun) {
  Store s(path_);
  s.finish_run(finished(make_run("imported")));
  auto r = s.find_by_key("imported");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, "ok");
  EXPECT_EQ(r->params.size(), 4u);
  EXPECT_EQ(r->metrics.size(), 2u);
}

TEST_F(StoreTest, TwoStoresOnOneFileSeeEachOthersWrites) {
  Store a(path_);
  Store b(path_);
  a.begin_run(make_run("from-a"));
  b.begin_run(make_run("from-b"));
  b.finish_run(finished(make_run("from-a")));
  EXPECT_EQ(a.find_by_key("from-a")->status, "ok");
  EXPECT_EQ(b.find_by_key("from-b")->status, "running");
  EXPECT_EQ(a.list({}).size(), 2u);
}

TEST_F(StoreTest, TwoProcessesWritingAtOnceLoseNothing) {
  { Store init(path_); }
  const int per_process = 50;
  const pid_t child = ::fork();
  if (child == 0) {
    int rc = 0;
    try {
      Store s(path_);
      for (int i = 0; i < per_process; ++i)
        s.finish_run(finished(make_run("child-" + std::to_string(i))));
    } catch (...) {
      rc = 1;
    }
    ::_exit(rc);
  }
  Store s(path_);
  for (int i = 0; i < per_process; ++i)
    s.finish_run(finished(make_run("parent-" + std::to_string(i))));
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(s.list({}).size(), 2u * per_process);
}

TEST_F(StoreTest, AnUnopenablePathIsASystemError) {
  EXPECT_THROW(Store("/proc/aerun-no-such-dir/results.db"), aerun::SystemError);
}

TEST_F(StoreTest, AStoreOfSchemaTwoIsMigratedInPlaceWithNothingLost) {
  // A store as the main of before claims and versions wrote it (schema v2), with one run.
  ASSERT_NO_FATAL_FAILURE(
      write_old_store(2,
                      "INSERT INTO runs(key, case_name, status, attempt, created_at, "
                      "updated_at, runner_pid, host) VALUES('old', 'fig8b', 'ok', 3, 1.7e9, "
                      "1.7e9, 42, 'node17');INSERT INTO run_params(run_id, name, value, num, "
                      "position) VALUES(1, 'layers', '32', 32, 0);"));
  Store s(path_);
  EXPECT_EQ(s.schema_version(), Store::latest_schema_version());
  const auto r = s.find_by_key("old");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, "ok");
  EXPECT_EQ(r->attempt, 3);
  EXPECT_EQ(r->params.size(), 1u);
  EXPECT_EQ(r->case_version, "");  // before versions: counts as current
  EXPECT_EQ(r->runner_start, 0);
}

TEST_F(StoreTest, AStoreOfSchemaFourGetsSessionsWithItsRunsInOneSessionBeforeSessions) {
  ASSERT_NO_FATAL_FAILURE(
      write_old_store(4,
                      "INSERT INTO runs(key, case_name, status, created_at, updated_at) "
                      "VALUES('k1', 'c', 'ok', 1.7e9, 1.8e9), ('k2', 'c', 'oom', 1.75e9, "
                      "1.75e9);INSERT INTO metrics(run_id, name, value) VALUES(1, 'iter_ms', "
                      "20);"));
  Store s(path_);
  const auto sessions = s.sessions();
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].label, "before-sessions");
  EXPECT_DOUBLE_EQ(sessions[0].started_at, 1.7e9);
  EXPECT_DOUBLE_EQ(*sessions[0].ended_at, 1.8e9);
  const auto runs = s.session_runs(sessions[0].id, "c");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_DOUBLE_EQ(runs[0].metric("iter_ms")->value, 20);
}

TEST_F(StoreTest, AnEmptyStoreMigratesWithoutASessionBeforeSessions) {
  Store s(path_);
  EXPECT_TRUE(s.sessions().empty());
}

// Two sessions, "night1" then "night2", opened in that order.
std::pair<aerun::SessionInfo, aerun::SessionInfo> two_nights(Store& s) {
  std::pair<aerun::SessionInfo, aerun::SessionInfo> n;
  n.first.label = "night1";
  n.second.label = "night2";
  s.open_session(n.first);
  s.open_session(n.second);
  return n;
}

TEST_F(StoreTest, EveryAttemptIsKeptAndEachSessionSeesItsOwn) {
  Store s(path_);
  auto [n1, n2] = two_nights(s);
  RunRecord r = make_run("k");
  r.status = "ok";
  r.session_id = n1.id;
  r.metrics = {{"iter_ms", 20, "ms", 1, 0}};
  s.begin_run(r);
  s.finish_run(r);
  r.session_id = n2.id;
  r.metrics = {{"iter_ms", 26, "ms", 1, 0}};
  s.begin_run(r);
  r.attempt = 2;
  s.finish_run(r);
  ASSERT_EQ(s.list({}).size(), 1u);  // one row per run: its latest attempt
  const auto first = s.session_runs(n1.id, "");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].attempt, 1);
  EXPECT_DOUBLE_EQ(first[0].metric("iter_ms")->value, 20);
  EXPECT_EQ(first[0].session_id, n1.id);
  EXPECT_EQ(first[0].params, r.params);
  const auto second = s.session_runs(n2.id, "");
  ASSERT_EQ(second.size(), 1u);
  EXPECT_DOUBLE_EQ(second[0].metric("iter_ms")->value, 26);
  EXPECT_EQ(s.all_attempts(r.case_name).size(), 2u);
  // A label stored already is continued, not duplicated.
  aerun::SessionInfo again;
  again.label = "night1";
  EXPECT_EQ(s.open_session(again), n1.id);
  EXPECT_EQ(s.find_session("night2")->id, n2.id);
  EXPECT_EQ(s.find_session(std::to_string(n2.id))->label, "night2");
  EXPECT_FALSE(s.find_session("night3"));
  // Forgetting a run forgets its history.
  ASSERT_EQ(s.remove({s.list({})[0].id}), 1);
  EXPECT_TRUE(s.session_runs(n1.id, "").empty());
}

// The report lists a session's cases without loading a run: in the order session_runs gives them.
TEST_F(StoreTest, ASessionsCaseNamesComeInTheOrderOfItsRunsWithoutLoadingThem) {
  Store s(path_);
  auto [n1, n2] = two_nights(s);
  auto run = [&](const std::string& key, const std::string& case_name, long long session) {
    RunRecord r = make_run(key, case_name);
    r.status = "ok";
    r.session_id = session;
    s.begin_run(r);
    s.finish_run(r);
  };
  run("k1", "fig8b", n1.id);  // run again by night2: night1's attempt is in the history
  run("k2", "fig7a", n1.id);
  run("k3", "fig8b", n1.id);
  run("k1", "fig8b", n2.id);
  run("k4", "fig6", n2.id);
  std::vector<std::string> listed;
  for (const auto& r : s.session_runs(n1.id, ""))
    if (std::find(listed.begin(), listed.end(), r.case_name) == listed.end())
      listed.push_back(r.case_name);
  EXPECT_EQ(listed, (std::vector<std::string>{"fig7a", "fig8b"}));
  EXPECT_EQ(s.session_case_names(n1.id), listed);
  EXPECT_EQ(s.session_case_names(n2.id), (std::vector<std::string>{"fig8b", "fig6"}));
  EXPECT_TRUE(s.session_case_names(n2.id + 1).empty());
}

namespace aerun {
namespace {

// Several aerun processes started together on a store that does not exist yet (a nightly job
// that runs `aerun ingest` and `aerun case` at once): every one opens it. Switching a new store
// to WAL needs it alone for a moment, and SQLite answers "database is locked" at once, without
// waiting, to the one that loses that race.
TEST_F(StoreTest, ProcessesOpeningANewStoreTogetherAllSucceed) {
  for (int round = 0; round < 10; ++round) {
    const std::string path = (dir_ / ("together-" + std::to_string(round) + ".db")).string();
    int go[2];
    ASSERT_EQ(::pipe(go), 0);
    std::vector<pid_t> children;
    for (int i = 0; i < 6; ++i) {
      const pid_t child = ::fork();
      if (child == 0) {
        ::close(go[1]);
        char c;
        if (::read(go[0], &c, 1) < 0) ::_exit(3);  // all start when the pipe closes
        try {
          Store s(path);
          ::_exit(s.schema_version() == Store::latest_schema_version() ? 0 : 2);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "%s\n", e.what());
          ::_exit(1);
        }
      }
      children.push_back(child);
    }
    ::close(go[0]);
    ::close(go[1]);
    for (const pid_t child : children) {
      int status = 0;
      ASSERT_EQ(::waitpid(child, &status, 0), child);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "round " << round;
    }
  }
}

}  // namespace
}  // namespace aerun

TEST_F(StoreTest, ExtractionWarningsAreStoredInOrderAndClearedByTheNextAttempt) {
  Store s(path_);
  s.begin_run(make_run("warned"));
  auto r = finished(make_run("warned"));
  r.warnings = {
      "metric loss: 3 captures were not a finite decimal number and not used (first: "
      "line 9, \"nan\")",
      "1 line was longer than 64 MiB: only the first 64 MiB of each matched (first: "
      "line 2)"};
  s.finish_run(r);
  auto out = s.find_by_key("warned");
  ASSERT_TRUE(out);
  EXPECT_EQ(out->warnings, r.warnings);
  s.begin_run(make_run("warned"));
  EXPECT_TRUE(s.find_by_key("warned")->warnings.empty());
  auto clean = finished(make_run("warned"));
  s.finish_run(clean);
  EXPECT_TRUE(s.find_by_key("warned")->warnings.empty());
}

namespace {

RunRecord with_long_series(const std::string& key, size_t points) {
  RunRecord r = finished(make_run(key));
  r.series = {{"loss", {}}};
  r.series[0].points.reserve(points);
  for (size_t i = 0; i < points; ++i)
    r.series[0].points.push_back(
        {static_cast<long long>(i), 1.0 / (1 + i), static_cast<long long>(i + 1)});
  return r;
}

long long series_rows(const std::string& path, const std::string& key) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_busy_timeout(db, 10000);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db,
                     "SELECT count(*) FROM series WHERE run_id=(SELECT id FROM runs WHERE key=?)",
                     -1, &st, nullptr);
  sqlite3_bind_text(st, 1, key.c_str(), -1, SQLITE_TRANSIENT);
  const long long n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

}  // namespace

// A 10 M-point series once held the write lock for 23 s and an `aerun case` on the same store died
// with "database is locked": a long series is written in parts, and another writer gets in between.
TEST_F(StoreTest, ALongSeriesIsWrittenInPartsAndAnotherWriterGetsInBetween) {
  constexpr size_t kPoints = 1'000'000;
  const RunRecord big = with_long_series("long", kPoints);
  Store(path_).begin_run(make_run("long"));
  std::thread writer([&] { Store(path_).finish_run(big); });
  for (int i = 0; i < 60000 && series_rows(path_, "long") <= 0; ++i) ::usleep(1000);
  Store other(path_);
  other.begin_run(make_run("small"));
  other.finish_run(finished(make_run("small")));
  const long long when_other_finished = series_rows(path_, "long");
  writer.join();
  EXPECT_GT(when_other_finished, 0);
  EXPECT_LT(when_other_finished, static_cast<long long>(kPoints));
  EXPECT_EQ(series_rows(path_, "long"), static_cast<long long>(kPoints));
  auto r = Store(path_).find_by_key("long");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty());  // the marker of the parts in flight is gone
  ASSERT_EQ(r->series.size(), 1u);
  EXPECT_EQ(r->series[0].points.back().source_line, static_cast<long long>(kPoints));
}

// A writer killed between the parts leaves the series marked incomplete, never silently short.
TEST_F(StoreTest, ASeriesWhoseWriterDiedBetweenPartsSaysItIsIncomplete) {
  Store(path_).begin_run(make_run("cut"));
  const RunRecord big = with_long_series("cut", 5'000'000);  // this process's claim
  const pid_t child = ::fork();
  if (child == 0) {
    Store(path_).finish_run(big);
    ::_exit(0);
  }
  for (int i = 0; i < 60000 && series_rows(path_, "cut") <= 0; ++i) ::usleep(1000);
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  const long long stored = series_rows(path_, "cut");
  ASSERT_GT(stored, 0);
  ASSERT_LT(stored, 5'000'000);
  auto r = Store(path_).find_by_key("cut");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, "ok");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "series incomplete: 5000000 points being written in parts by aerun process " +
                std::to_string(child) + " on " + aerun::self_identity().host +
                " (this line stays only if it stopped before the last part)");
}
