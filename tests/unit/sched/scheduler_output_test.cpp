// What squeue and `qstat -f -F json` print, read into job reports; array ids both ways.
#include <gtest/gtest.h>

#include "aerun/pbs_client.hpp"
#include "aerun/slurm_client.hpp"

using namespace aerun;

TEST(Squeue, ArrayTasksWithStatesReasonsExitCodesAndTimes) {
  // As printed by Slurm 22.05 for -O
  // JobArrayID:|,State:|,Reason:|,exit_code:|,StartTime:|,EndTime:|
  const auto jobs = parse_squeue(
      "7_0|COMPLETED|None|0|2026-11-22T02:27:59|2026-11-22T02:28:00|\n"
      "7_2|FAILED|NonZeroExitCode|1|2026-11-22T02:27:59|2026-11-22T02:28:00|\n"
      "8|PENDING|Resources|0|N/A|N/A|\n");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].job_id, "7_0");
  EXPECT_EQ(jobs[0].run_state.status, "ok");
  EXPECT_EQ(jobs[0].reason, "");
  EXPECT_EQ(jobs[1].exit_code, 1);
  EXPECT_EQ(jobs[1].reason, "NonZeroExitCode");
  ASSERT_TRUE(jobs[1].start_time && jobs[1].end_time);
  EXPECT_DOUBLE_EQ(*jobs[1].end_time - *jobs[1].start_time, 1.0);
  EXPECT_EQ(jobs[2].run_state.status, "pending");
  EXPECT_EQ(jobs[2].reason, "Resources");
  EXPECT_FALSE(jobs[2].start_time);
  EXPECT_FALSE(jobs[2].exit_code);  // not finished: squeue's 0 means nothing yet
}

TEST(Squeue, TheExitCodeFieldIsExitColonSignal) {
  // squeue's exit_code is "exit:signal": a task killed by SIGKILL reads "0:9".
  const auto jobs = parse_squeue(
      "9_1|FAILED|NonZeroExitCode|0:9|2026-11-22T02:27:59|2026-11-22T02:28:00|\n"
      "9_2|FAILED|NonZeroExitCode|3:0|2026-11-22T02:27:59|2026-11-22T02:28:00|\n"
      "9_3|EXPEDITING|None|0:0|N/A|N/A|\n");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].exit_code, 0);
  EXPECT_EQ(jobs[0].signal, 9);
  EXPECT_EQ(jobs[1].exit_code, 3);
  EXPECT_FALSE(jobs[1].signal);
  EXPECT_EQ(jobs[2].run_state.status, "pending");  // newer Slurm: not running yet
  EXPECT_FALSE(jobs[2].signal);
}

TEST(QstatJson, JobsAndSubjobsWithExitStatusAndComment) {
  const auto jobs = parse_qstat_json(R"({
    "timestamp":1700000000, "pbs_version":"2022.1.1", "pbs_server":"polaris-pbs-01",
    "Jobs":{
      "12[].polaris-pbs-01":{"Job_Name":"x","job_state":"B","substate":42,"array":"True"},
      "12[0].polaris-pbs-01":{"job_state":"X","substate":92,"Exit_status":0,
                               "stime":"Thu Nov 12 10:00:00 2020","obittime":"Thu Nov 12 10:01:40 2020"},
      "12[1].polaris-pbs-01":{"job_state":"X","substate":92,"Exit_status":-29,
                               "comment":"job killed: walltime 3610 exceeded limit 3600"},
      "13.polaris-pbs-01":{"job_state":"Q","substate":10,
                           "comment":"Not Running: Insufficient amount of resource: ngpus"}
    }})");
  ASSERT_EQ(jobs.size(), 4u);
  auto find = [&](const std::string& id) {
    for (const auto& j : jobs)
      if (j.job_id == id) return j;
    return JobReport{};
  };
  EXPECT_EQ(find("12[].polaris-pbs-01").run_state.status, "running");
  const auto ok = find("12[0].polaris-pbs-01");
  EXPECT_EQ(ok.run_state.status, "ok");
  EXPECT_EQ(ok.exit_code, 0);
  ASSERT_TRUE(ok.start_time && ok.end_time);
  EXPECT_DOUBLE_EQ(*ok.end_time - *ok.start_time, 100.0);
  const auto late = find("12[1].polaris-pbs-01");
  EXPECT_EQ(late.run_state.status, "timeout");
  EXPECT_EQ(late.reason, "Exit_status=-29; job killed: walltime 3610 exceeded limit 3600");
  EXPECT_EQ(find("13.polaris-pbs-01").reason,
            "Not Running: Insufficient amount of resource: ngpus");
}

TEST(QstatJson, TextThatIsNotJsonIsASchedulerError) {
  EXPECT_THROW(parse_qstat_json("qstat: cannot connect"), SchedulerError);
  EXPECT_TRUE(parse_qstat_json(R"({"timestamp":1,"pbs_server":"s"})").empty());
}

TEST(ArrayIds, TaskAndBaseIdsOfBothSchedulers) {
  SlurmClient s;
  EXPECT_EQ(s.task_id("41", 3), "41_3");
  EXPECT_EQ(s.base_id("41_3"), "41");
  EXPECT_EQ(s.base_id("41"), "41");
  PbsClient p;
  EXPECT_EQ(p.task_id("12[].srv", 4), "12[4].srv");
  EXPECT_EQ(p.base_id("12[4].srv"), "12[].srv");
  EXPECT_EQ(p.base_id("13.srv"), "13.srv");
}

TEST(QstatJson, InvalidEscapesAndRawControlCharactersAreRepaired) {
  // As some PBS versions print it: a \' escape and a raw tab inside the comment string.
  const std::string text =
      "{\"timestamp\":1700000000,\"pbs_version\":\"2022.1.1\",\"pbs_server\":\"s\",\"Jobs\":{"
      "\"5.s\":{\"job_state\":\"F\",\"substate\":92,\"Exit_status\":0,"
      "\"comment\":\"it\\'s\tdone C:\\data\"}}}";
  const auto jobs = parse_qstat_json(text);
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].run_state.status, "ok");
  EXPECT_NE(jobs[0].reason.find("it's\tdone C:\\data"), std::string::npos) << jobs[0].reason;
  // Valid JSON is left as it is; text that is not JSON at all is still refused.
  EXPECT_EQ(repair_pbs_json("{\"a\":\"x\\ny\"}"), "{\"a\":\"x\\ny\"}");
  EXPECT_THROW(parse_qstat_json("qstat: cannot connect to server"), SchedulerError);
}
