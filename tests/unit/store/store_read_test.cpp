// Reading runs in bulk: the paths for_each takes (a case dense or sparse in the ids, parts of an
// id range, some columns, some metrics) give what find() gives; schema 11 keeps what was stored.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "aerun/store/store.hpp"
#include "aerun/util/process_identity.hpp"
#include "store/migrations.hpp"
#include "store_folder_test.hpp"

using aerun::RunFilter;
using aerun::RunRecord;
using aerun::Store;
using aerun::Value;

namespace fs = std::filesystem;

namespace {

class StoreReadTest : public aerun::testing::StoreFolderTest {
 protected:
  // Run i of case_name, finished ok with three metrics (written out of name order) and a series.
  static RunRecord run(int i, const std::string& case_name) {
    RunRecord r;
    r.key = case_name + "-" + std::to_string(i);
    r.case_name = case_name;
    r.case_file = "/cases/" + case_name + ".yaml";
    r.repeat_index = i % 3;
    r.command = "train --step " + std::to_string(i);
    r.workdir = "/work";
    r.params = {{"z", Value::parse(std::to_string(i))}, {"a", Value::parse("x")}};
    r.env = {{"OMP_NUM_THREADS", Value::parse("8")}};
    r.runner_pid = ::getpid();
    r.host = "node17";
    r.status = "ok";
    r.reason = "exit code 0";
    r.wall_s = 1.5 * i;
    r.log_path = "/logs/" + r.key + ".log";
    r.metrics = {{"tflops", 100.0 + i, "TFLOP/s", 3, 40},
                 {"iter_ms", 10.0 + i, "ms", 3, 41},
                 {"lm_loss", 2.0, "", 3, 42}};
    r.series = {{"loss", {{0, 3.0, 6}, {1, 2.5, 7}}}};
    return r;
  }

  static void expect_same(const RunRecord& got, const RunRecord& want) {
    EXPECT_EQ(got.key, want.key);
    EXPECT_EQ(got.status, want.status);
    EXPECT_EQ(got.command, want.command);
    EXPECT_EQ(got.wall_s, want.wall_s);
    ASSERT_EQ(got.params.size(), want.params.size()) << want.key;
    for (size_t i = 0; i < want.params.size(); ++i) {
      EXPECT_EQ(got.params[i].first, want.params[i].first);
      EXPECT_EQ(got.params[i].second.text(), want.params[i].second.text());
    }
    EXPECT_EQ(got.env.size(), want.env.size());
    ASSERT_EQ(got.metrics.size(), want.metrics.size()) << want.key;
    for (size_t i = 0; i < want.metrics.size(); ++i) {
      EXPECT_EQ(got.metrics[i].name, want.metrics[i].name);  // in their written order
      EXPECT_EQ(got.metrics[i].value, want.metrics[i].value);
      EXPECT_EQ(got.metrics[i].unit, want.metrics[i].unit);
      EXPECT_EQ(got.metrics[i].source_line, want.metrics[i].source_line);
    }
    ASSERT_EQ(got.series.size(), want.series.size());
    if (!want.series.empty()) {
      EXPECT_EQ(got.series[0].points.size(), want.series[0].points.size());
    }
  }
};

void put(Store& s, RunRecord r) {
  s.store_ingested(r);
}

pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

}  // namespace

// Case "rare" holds one id in ten (its children are joined to its runs), "common" the others
// (its children read in one pass over its id range, other runs' rows skipped): both read as find().
TEST_F(StoreReadTest, ACaseDenseOrSparseInTheIdsIsReadAsFindReadsEachRun) {
  Store s(path_);
  for (int i = 0; i < 60; ++i) put(s, run(i, i % 10 == 3 ? "rare" : "common"));
  for (const std::string c : {"rare", "common"}) {
    size_t n = 0;
    s.for_each(RunFilter::of_case(c), [&](RunRecord& r) {
      ++n;
      const auto want = s.find_by_key(r.key);
      EXPECT_TRUE(want);
      if (want) expect_same(r, *want);
      EXPECT_EQ(r.metrics.size(), 3u);
      EXPECT_EQ(r.metrics[0].name, "tflops");
      return true;
    });
    EXPECT_EQ(n, c == "rare" ? 6u : 54u);
  }
}

TEST_F(StoreReadTest, PartsOfTheIdRangeTogetherReadEveryRunOnce) {
  Store s(path_);
  for (int i = 0; i < 40; ++i) put(s, run(i, i % 4 ? "b" : "a"));
  const Store::IdSpan span = s.id_span(RunFilter::of_case("b"));
  EXPECT_EQ(span.runs, 30);
  EXPECT_EQ(span.first, 2);  // ids start at 1; run 0 is case a
  EXPECT_EQ(span.last, 40);
  EXPECT_EQ(s.id_span(RunFilter::of_case("none")).runs, 0);
  EXPECT_THROW(s.id_span(RunFilter{}), std::invalid_argument);
  std::vector<std::string> whole, parts;
  s.for_each(RunFilter::of_case("b"), [&](RunRecord& r) {
    whole.push_back(r.key);
    return true;
  });
  for (long long from = span.first; from <= span.last; from += 7) {
    RunFilter f = RunFilter::of_case("b");
    f.id_from = from;
    f.id_to = std::min(from + 6, span.last);
    s.for_each(f, [&](RunRecord& r) {
      EXPECT_GE(r.id, f.id_from);
      EXPECT_LE(r.id, f.id_to);
      EXPECT_EQ(r.metrics.size(), 3u);
      parts.push_back(r.key);
      return true;
    });
  }
  EXPECT_EQ(parts, whole);
}

TEST_F(StoreReadTest, NamedColumnsAreReadTheOthersKeepTheirDefaultsAndAStaleClaimStillShows) {
  Store s(path_);
  put(s, run(1, "c"));
  RunRecord dead = run(2, "c");
  dead.host = aerun::self_identity().host;
  dead.runner_pid = dead_pid();  // an aerun that is gone left it running
  s.begin_run(dead);
  RunFilter f = RunFilter::of_case("c");
  f.columns = std::vector<std::string>{"wall_s"};
  f.with_metric_details = false;
  std::vector<RunRecord> got;
  s.for_each(f, [&](RunRecord& r) {
    got.push_back(r);
    return true;
  });
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].status, "ok");
  EXPECT_EQ(got[0].wall_s, 1.5);
  EXPECT_EQ(got[0].case_file, "/cases/c.yaml");
  EXPECT_EQ(got[0].command, "");   // not named
  EXPECT_EQ(got[0].log_path, "");  // not named
  EXPECT_EQ(got[0].host, "");      // the claim of a run that is not running
  EXPECT_EQ(got[0].metrics[0].value, 101.0);
  EXPECT_EQ(got[0].metrics[0].unit, "");  // no details asked for
  EXPECT_EQ(got[1].status, "stale");
  EXPECT_THAT(got[1].reason, ::testing::HasSubstr("disappeared"));
  f.columns = std::vector<std::string>{"no_such_column"};
  EXPECT_THROW(s.for_each(f, [](RunRecord&) { return true; }), std::invalid_argument);
}

TEST_F(StoreReadTest, OnlyTheMetricsNamedAreRead) {
  Store s(path_);
  for (int i = 0; i < 5; ++i) put(s, run(i, "c"));
  RunFilter f = RunFilter::of_case("c");
  f.metric_names = std::vector<std::string>{"lm_loss", "tflops"};
  s.for_each(f, [&](RunRecord& r) {
    EXPECT_EQ(r.metrics.size(), 2u);
    EXPECT_EQ(r.metrics[0].name, "tflops");  // still in their written order
    EXPECT_EQ(r.metrics[1].name, "lm_loss");
    EXPECT_EQ(r.params.size(), 2u);
    return true;
  });
  f.metric_names = std::vector<std::string>{};
  s.for_each(f, [&](RunRecord& r) {
    EXPECT_TRUE(r.metrics.empty());
    return true;
  });
}

// A store of schema 10 (children in rowid tables, a metric's order its rowid) migrates to the
// clustered tables with every row and every run's metric order kept.
TEST_F(StoreReadTest, SchemaTenMigratesToClusteredChildrenKeepingEveryRowAndTheMetricOrder) {
  ASSERT_NO_FATAL_FAILURE(
      write_old_store(10,
                      "INSERT INTO runs(key, case_name, status, created_at, updated_at) "
                      "VALUES('k1', 'c', 'ok', 1.7e9, 1.7e9);INSERT INTO run_params VALUES(1,"
                      " 'z', '3', 3, 0), (1, 'a', 'x', NULL, 1);INSERT INTO run_env VALUES(1,"
                      " 'OMP_NUM_THREADS', '8', 0);INSERT INTO metrics(run_id, name, value, "
                      "unit) VALUES(1, 'tflops', 99, 'TFLOP/s'), (1, 'iter_ms', 12.5, 'ms'), "
                      "(1, 'alpha', 1, '');"));
  Store s(path_);
  EXPECT_EQ(s.schema_version(), Store::latest_schema_version());
  const auto r = s.find_by_key("k1");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->metrics.size(), 3u);
  EXPECT_EQ(r->metrics[0].name, "tflops");
  EXPECT_EQ(r->metrics[1].name, "iter_ms");
  EXPECT_EQ(r->metrics[2].name, "alpha");
  EXPECT_EQ(r->metrics[1].unit, "ms");
  ASSERT_EQ(r->params.size(), 2u);
  EXPECT_EQ(r->params[0].first, "z");
  EXPECT_EQ(r->env.size(), 1u);
  std::vector<RunRecord> streamed = s.list(RunFilter::of_case("c"));
  ASSERT_EQ(streamed.size(), 1u);
  EXPECT_EQ(streamed[0].metrics[2].name, "alpha");
  // New metrics are written with their place, and the tables are clustered by run.
  RunRecord another = *r;
  another.key = "k2";
  another.metrics = {{"zeta", 1, "", 1, 0}, {"beta", 2, "", 1, 0}};
  s.store_ingested(another);
  EXPECT_EQ(s.find_by_key("k2")->metrics[0].name, "zeta");
  EXPECT_EQ(s.list(RunFilter::of_case("c"))[1].metrics[1].name, "beta");
  EXPECT_EQ(query_text("SELECT count(*) FROM sqlite_master WHERE name IN ('run_params', "
                       "'run_env', 'metrics') AND sql LIKE '%WITHOUT ROWID%'"),
            "3");
}
