// Flux as aerun reads it, on output recorded from a real flux-core (v0.88.0-59-g4a5e79f56, built
// from source and run as `flux start --test-size=N` on this machine;
// tests/fixtures/flux/README.md): its ids, `flux jobs --json` for each way a job ends, its states,
// and a job script's directives.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "aerun/judge/run_status.hpp"
#include "aerun/sched/flux_states.hpp"
#include "aerun/sched/scheduler_backend.hpp"
#include "sched/flux_client.hpp"

namespace aerun {
namespace {

using ::testing::HasSubstr;

// The first JSON line after the transcript line "$ COMMAND" in tests/fixtures/flux/FILE.
std::string recorded(const std::string& file, const std::string& command) {
  std::ifstream in(std::string(AERUN_FIXTURES) + "/flux/" + file);
  std::string line;
  bool found = false;
  while (std::getline(in, line)) {
    if (line == "$ " + command) found = true;
    if (found && line.rfind("{", 0) == 0) return line;
  }
  ADD_FAILURE() << "no JSON after '$ " << command << "' in " << file;
  return "{}";
}

JobReport one(const std::string& file, const std::string& command) {
  const auto jobs = parse_flux_jobs_json(recorded(file, command));
  EXPECT_EQ(jobs.size(), 1u);
  return jobs.empty() ? JobReport{} : jobs[0];
}

TEST(FluxIds, F58AndDecimalAreTheSameJob) {
  // run1: `flux job id --to=dec ƒjXxPvo` printed 27917287424; `flux jobs -a --json` pairs the
  // rest ("id":199145553920,"jobid":"ƒ6EQp247").
  EXPECT_EQ(flux_decimal_id("\xC6\x92jXxPvo"), "27917287424");
  EXPECT_EQ(flux_decimal_id("fjXxPvo"), "27917287424");  // FLUX_F58_FORCE_ASCII=1
  EXPECT_EQ(flux_decimal_id("\xC6\x92"
                            "6EQp247"),
            "199145553920");
  EXPECT_EQ(flux_decimal_id("f3okNAGX"), "106820534272");
  EXPECT_EQ(flux_decimal_id("27917287424"), "27917287424");
  EXPECT_EQ(flux_decimal_id("f0OIl"), "");  // not in F58's alphabet
  EXPECT_EQ(flux_decimal_id("flux-batch: ERROR: x"), "");
  EXPECT_EQ(flux_decimal_id(""), "");
}

TEST(FluxJobs, AScriptThatExitedThreeIsFailedWithItsCode) {
  // Printed by flux itself (no jq): one id, one object; the F58 id ASCII-escaped.
  const JobReport r = one("run1-test-size2.txt",
                          "flux jobs --json \xC6\x92"
                          "6EQp247");
  EXPECT_EQ(r.job_id, "199145553920");
  EXPECT_EQ(r.state, "FAILED");
  EXPECT_EQ(r.run_state.status, run_status::failed);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.nodes, "vm");
  EXPECT_NEAR(*r.start_time, 1795931302.7367852, 1e-3);
  EXPECT_NEAR(*r.end_time, 1795931308.2230544, 1e-3);
}

TEST(FluxJobs, EachWayAJobEndsHasItsStatus) {
  const JobReport cancelled_pending = one("run1-test-size2.txt",
                                          "flux jobs --json \xC6\x92"
                                          "CXXV9Pd | jq -c .");
  EXPECT_EQ(cancelled_pending.run_state.status, run_status::cancelled);
  EXPECT_EQ(cancelled_pending.exit_code, std::nullopt);  // -128: it never ran
  EXPECT_FALSE(cancelled_pending.start_time.has_value());
  const JobReport cancelled_running = one("run1-test-size2.txt",
                                          "flux jobs --json \xC6\x92"
                                          "CBPEuKu | jq -c .");
  EXPECT_EQ(cancelled_running.run_state.status, run_status::cancelled);
  EXPECT_EQ(cancelled_running.signal, 15);  // 143 = 128 + SIGTERM
  const JobReport timed_out = one("run1-test-size2.txt",
                                  "flux jobs --json \xC6\x92"
                                  "FVrofLT | jq -c .");
  EXPECT_EQ(timed_out.run_state.status, run_status::timeout);
  EXPECT_EQ(timed_out.reason, "timeout: resource allocation expired");
  const JobReport killed = one("run1-test-size2.txt",
                               "flux jobs --json \xC6\x92"
                               "HXR2iNK | jq -c .");
  EXPECT_EQ(killed.run_state.status, run_status::failed);
  EXPECT_EQ(killed.signal, 9);
  const JobReport missing = one("run1-test-size2.txt",
                                "flux jobs --json \xC6\x92"
                                "KFsS3sV | jq -c .");
  EXPECT_EQ(missing.exit_code, 127);
  const JobReport ok = one("run2-queues-configured.txt",
                           "flux jobs --json \xC6\x92"
                           "38LHFio | jq -c .");
  EXPECT_EQ(ok.run_state.status, run_status::ok);
  EXPECT_EQ(ok.exit_code, 0);
}

TEST(FluxJobs, ALostBrokerIsANodeFailureAndAnImpossibleRequestNeverStarted) {
  const JobReport node = one("run3-node-failure.txt",
                             "flux jobs --json \xC6\x92"
                             "28VHGzT | jq -c .");
  const JobReport first = one("run3-node-failure.txt",
                              "flux jobs --json \xC6\x92"
                              "rb8yhy | jq -c .");
  // One of the two jobs ran on the disconnected broker: "node failure on vm (rank 2)".
  EXPECT_TRUE(node.run_state.status == run_status::node_failure ||
              first.run_state.status == run_status::node_failure)
      << node.reason << " / " << first.reason;
  const std::string unsat = recorded("run4-unsatisfiable.txt",
                                     "flux jobs --json \xC6\x92"
                                     "eqAg5M | jq -c '{state,result,returncode,exception}'");
  EXPECT_EQ(flux_run_state("INACTIVE", "FAILED", "alloc", "unsatisfiable request").status,
            run_status::launch_failed);
  EXPECT_THAT(unsat, HasSubstr("\"type\":\"alloc\""));
}

TEST(FluxJobs, APendingJobHasNoResultYet) {
  EXPECT_EQ(flux_run_state("SCHED", "", "", "").status, run_status::pending);
  EXPECT_EQ(flux_run_state("DEPEND", "", "", "").status, run_status::pending);
  EXPECT_EQ(flux_run_state("CLEANUP", "", "", "").status, run_status::running);
  EXPECT_FALSE(flux_run_state("RUN", "", "", "").finished);
}

TEST(FluxJobs, SeveralIdsAreAJobsListAndTextIsNoAnswer) {
  const auto jobs = parse_flux_jobs_json(
      R"({"jobs": [{"id": 1, "state": "RUN"}, {"id": 2, "state": "INACTIVE", "result": "COMPLETED", "returncode": 0}]})");
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].run_state.status, run_status::running);
  EXPECT_EQ(jobs[1].run_state.status, run_status::ok);
  // run0: the broker out of reach.
  EXPECT_THROW(parse_flux_jobs_json("flux-jobs: ERROR: Unable to connect to Flux: broker socket "
                                    "/tmp/nonexistent was not found"),
               SchedulerError);
  const FluxClient c;
  EXPECT_TRUE(c.transient(
      "flux-batch: ERROR: Unable to connect to Flux: broker socket /run/flux/local was not found"));
  EXPECT_FALSE(c.transient("flux-batch: ERROR: 'nosuchqueue' is not a valid queue"));
}

TEST(FluxBackend, DirectivesUseOneSentinelAndFluxsUnits) {
  const SchedulerBackend& flux = *find_scheduler_backend("flux");
  EXPECT_FALSE(flux.has_arrays());
  ResourcesSpec r;
  r.nodes = 2;
  r.tasks_per_node = 4;
  r.cpus_per_task = 8;
  r.gpus_per_node = 4;
  r.walltime_s = 3600;
  r.queue = "pbatch";
  r.account = "guests";
  EXPECT_EQ(flux.directives(r, JobArray{1, 0, "c-1a2b"}),
            "#flux: --job-name=c-1a2b\n#flux: -N 2\n#flux: -n 2\n#flux: -c 32\n#flux: -g 4\n"
            "#flux: -t 3600s\n#flux: -q pbatch\n#flux: --setattr=system.bank=guests\n");
  EXPECT_EQ(flux.directives(ResourcesSpec{}, JobArray{1, 0, "one"}),
            "#flux: --job-name=one\n#flux: -n 1\n");
}

}  // namespace
}  // namespace aerun
