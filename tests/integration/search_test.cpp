// `search:` on the real binary: the largest trainable size per method found by bisection, every
// probe a stored run, reruns reusing the probes, and the table's `agg: largest_ok` showing it.
#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// Fig. 6a in miniature: each method runs out of GPU memory above its own number of layers
// (megatron-lm 32, l2l 78, zero-offload 48), saying so as PyTorch does.
std::string fig6a(const std::string& search, const std::string& sleep = "0") {
  return R"yaml(case: fig6a
params:
  method: [megatron-lm, l2l, zero-offload]
search:
)yaml" + search +
         R"yaml(
command: |
  sleep )yaml" +
         sleep + R"yaml(
  limit=32; [ {method} = l2l ] && limit=78; [ {method} = zero-offload ] && limit=48
  if [ {layers} -gt $limit ]; then echo "RuntimeError: CUDA out of memory"; exit 1; fi
  echo "trained {layers} layers"
status:
  oom: 'CUDA out of memory'
tables:
  fig6a:
    rows: [method]
    columns:
      - {metric: layers, agg: largest_ok, label: "Layers"}
)yaml";
}

const std::string kSearch = "  param: layers\n  min: 16\n  max: 128\n";

// Runs of the case per method: how many, and the status of each layers value.
std::map<std::string, std::map<int, std::string>> probes_by_method(const std::string& db) {
  std::map<std::string, std::map<int, std::string>> out;
  for (const auto& row : sql(db,
                             "SELECT m.value, l.value, r.status FROM runs r "
                             "JOIN run_params m ON m.run_id=r.id AND m.name='method' "
                             "JOIN run_params l ON l.run_id=r.id AND l.name='layers'"))
    out[row[0]][std::stoi(row[1])] = row[2];
  return out;
}

TEST(Search, FindsTheLargestOkValuePerMethodWithEveryProbeAStoredRun) {
  TempDir d;
  write_file(d / "fig6a.yaml", fig6a(kSearch));
  const auto r = run_aerun(d, {"case", "fig6a.yaml", "-j", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("search layers for method=l2l: largest ok = 78 (probes: 16 ok, 72 "
                               "ok, 100 oom, 86 oom, 79 oom, 75 ok, 77 ok, 78 ok)"));
  EXPECT_THAT(r.err, HasSubstr("search layers for method=megatron-lm: largest ok = 32 ("));
  EXPECT_THAT(r.err, HasSubstr("search layers for method=zero-offload: largest ok = 48 ("));

  const std::string db = d / "results/aerun.db";
  const auto probes = probes_by_method(db);
  ASSERT_EQ(probes.size(), 3u);
  for (const auto& [method, runs] : probes) {
    // Bisection over the 113 values 16..128: at most 1 + ceil(log2(113)) = 8 probes.
    EXPECT_LE(runs.size(), 8u) << method;
    EXPECT_EQ(runs.at(16), "ok") << method;
  }
  EXPECT_EQ(probes.at("l2l").at(78), "ok");
  EXPECT_EQ(probes.at("l2l").at(79), "oom");
  EXPECT_EQ(probes.at("megatron-lm").at(32), "ok");
  EXPECT_EQ(probes.at("megatron-lm").at(33), "oom");
  // Each probe is an ordinary run: a log with the line that made it an OOM, the reason kept.
  const auto oom = sql(db, "SELECT log_path, reason FROM runs WHERE status='oom' LIMIT 1");
  ASSERT_EQ(oom.size(), 1u);
  EXPECT_THAT(read_file(oom[0][0]), HasSubstr("RuntimeError: CUDA out of memory"));
  EXPECT_THAT(oom[0][1], HasSubstr("CUDA out of memory"));
}

TEST(Search, RunningTheCaseAgainReusesEveryProbe) {
  TempDir d;
  write_file(d / "fig6a.yaml", fig6a(kSearch));
  ASSERT_EQ(run_aerun(d, {"case", "fig6a.yaml", "-j", "3"}).code, 0);
  const std::string db = d / "results/aerun.db";
  const auto before = sql(db, "SELECT key, launch_time, attempt FROM runs ORDER BY key");

  const auto r = run_aerun(d, {"case", "fig6a.yaml", "-j", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sql(db, "SELECT key, launch_time, attempt FROM runs ORDER BY key"), before);
  EXPECT_THAT(r.err, HasSubstr("search fig6a: 0 probes run, " + std::to_string(before.size()) +
                               " reused from the store"));
  EXPECT_THAT(r.err, HasSubstr("search layers for method=l2l: largest ok = 78 (probes: 16 ok, 72 "
                               "ok, 100 oom, 86 oom, 79 oom, 75 ok, 77 ok, 78 ok)"));
}

TEST(Search, TheTablesLargestOkColumnShowsTheValuesFound) {
  TempDir d;
  write_file(d / "fig6a.yaml", fig6a(kSearch));
  ASSERT_EQ(run_aerun(d, {"case", "fig6a.yaml", "-j", "3"}).code, 0);
  const auto t = run_aerun(d, {"table", "fig6a", "--cases", "fig6a.yaml", "--format", "csv"});
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_THAT(
      t.out, AllOf(HasSubstr("l2l,78"), HasSubstr("megatron-lm,32"), HasSubstr("zero-offload,48")));
}

TEST(Search, ProbesAreMultiplesOfTheStep) {
  TempDir d;
  write_file(d / "fig6a.yaml", fig6a(kSearch + "  step: 4\n"));
  const auto r = run_aerun(d, {"case", "fig6a.yaml", "-j", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("method=l2l: largest ok = 76 ("));
  for (const auto& [method, runs] : probes_by_method(d / "results/aerun.db"))
    for (const auto& [layers, status] : runs) EXPECT_EQ((layers - 16) % 4, 0) << layers;
}

TEST(Search, AFailingMinIsReportedAndNothingLargerIsTried) {
  TempDir d;
  write_file(d / "fig6a.yaml", fig6a("  param: layers\n  min: 40\n  max: 128\n"));
  const auto r = run_aerun(d, {"case", "fig6a.yaml", "--only", "method=megatron-lm"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("search layers: no ok value: the smallest, 40, failed (oom); "
                               "nothing larger was tried (probes: 40 oom)"));
  EXPECT_EQ(sql1(d / "results/aerun.db", "SELECT count(*) FROM runs"), "1");
}

TEST(Search, DryRunShowsEachPointsFirstProbeAndTheBoundOnProbes) {
  TempDir d;
  write_file(d / "fig6a.yaml", fig6a(kSearch));
  const auto r = run_aerun(d, {"case", "fig6a.yaml", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("adaptive"));
  EXPECT_THAT(r.out,
              HasSubstr("# method=l2l: first probe layers=16 of 113 values, at most 8 probes"));
  EXPECT_THAT(r.out, HasSubstr("if [ 16 -gt $limit ]"));
  EXPECT_THAT(r.out, Not(HasSubstr("if [ 72 -gt")));
  EXPECT_THAT(r.out, HasSubstr("# 3 points searched: 3 first runs, at most 24 runs"));
  EXPECT_FALSE(std::filesystem::exists(d / "results/aerun.db"));
}

TEST(Search, AnInterruptedSearchResumesWithTheProbesAlreadyDone) {
  TempDir d;
  write_file(d / "fig6a.yaml", fig6a(kSearch, "0.4"));
  // Ctrl-C once the first round of probes (one per method, 0.4 s each) is stored.
  const std::string db = d / "results/aerun.db";
  auto bg = start_aerun_logged(d, {"case", "fig6a.yaml", "-j", "3"});
  const bool a_round_done = eventually([&] {
    return fs::exists(db) &&
           std::stoi(sql1(db, "SELECT count(*) FROM runs WHERE status IN ('ok','oom')")) >= 3;
  });
  kill(bg->pid(), SIGINT);
  bg->wait();
  ASSERT_TRUE(a_round_done) << read_file(d / ".err");
  ASSERT_TRUE(bg->exit().code.has_value()) << bg->exit().signal.value_or(0) << read_file(d / ".err");
  ASSERT_EQ(*bg->exit().code, 130) << read_file(d / ".err");
  const auto done_before =
      sql(db, "SELECT key, launch_time FROM runs WHERE status<>'interrupted' ORDER BY key");
  ASSERT_FALSE(done_before.empty());

  const auto r = run_aerun(d, {"case", "fig6a.yaml", "-j", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("method=l2l: largest ok = 78 ("));
  EXPECT_THAT(r.err, HasSubstr("method=megatron-lm: largest ok = 32 ("));
  EXPECT_THAT(r.err, HasSubstr("method=zero-offload: largest ok = 48 ("));
  // The probes finished before the interruption were not run again.
  for (const auto& row : done_before)
    EXPECT_EQ(sql1(db, "SELECT launch_time FROM runs WHERE key='" + row[0] + "'"), row[1]);
  for (const auto& [method, runs] : probes_by_method(db)) EXPECT_LE(runs.size(), 8u) << method;
}

}  // namespace
