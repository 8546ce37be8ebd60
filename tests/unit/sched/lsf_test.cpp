// IBM Spectrum LSF as aerun reads it: bsub's answer, `bjobs -json` records, LSF's times, its
// states and termination reasons, and the directives of a job script. The texts are real LSF
// output as public projects recorded it (tests/fixtures/lsf/README.md names each source).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/judge/run_status.hpp"
#include "aerun/sched/lsf_states.hpp"
#include "aerun/sched/scheduler_backend.hpp"
#include "sched/lsf_client.hpp"

namespace aerun {
namespace {

using ::testing::HasSubstr;

TEST(LsfSubmit, TheJobIdIsReadFromBsubsAnswerOnWhicheverLineItIs) {
  // nextflow-io/nextflow LsfExecutorTest.groovy; SmartSim tests/test_lsf_parser.py.
  EXPECT_EQ(lsf_submitted_id("Job <2329803> is submitted to default queue <research-rh6>."),
            "2329803");
  EXPECT_EQ(lsf_submitted_id("Job <12345> is submitted to queue <debug>.\n"), "12345");
  // A site's esub speaks first (deepmodeling/dpdispatcher#200).
  EXPECT_EQ(lsf_submitted_id("Submiting job\nJob <2861772> is submitted to queue <snode>.\n"),
            "2861772");
  // A refusal (equinor/ert test_lsf_driver.py, captured by hand on a real cluster).
  EXPECT_EQ(lsf_submitted_id("No such queue. Job not submitted"), "");
  EXPECT_EQ(lsf_submitted_id("Job <abc> is submitted to queue <x>."), "");
}

TEST(LsfSubmit, BusyOrDownIsTriedAgainAndAnArrayTooLargeIsNamed) {
  const LsfClient c;
  // IBM LSF 10.1 lsf.conf: LSB_MBD_BUSY_MSG, LSB_MBD_CONNECT_FAIL_MSG, LSB_MBD_DOWN_MSG defaults.
  EXPECT_TRUE(c.transient("LSF is processing your request. Please wait..."));
  EXPECT_TRUE(c.transient("Cannot connect to LSF. Please wait..."));
  EXPECT_TRUE(c.transient("LSF is down. Please wait..."));
  EXPECT_FALSE(c.transient("No such queue. Job not submitted"));
  EXPECT_EQ(c.refusal("Job array index too large. Job not submitted."), Refusal::ArrayTooLarge);
  EXPECT_EQ(c.refusal("Too many processors requested. Job not submitted."), Refusal::Other);
}

TEST(LsfQuery, ABjobsJsonRecordBecomesAJobReport) {
  // mskcc/ridgeback tests/test_lsf_client.py: `bjobs -json -o "user exit_code stat exit_reason
  // pend_reason" ID`, a job its owner killed, with the line LSF printed while it waited first.
  const std::string out = R"(Cannot connect to LSF. Please wait ...
{
  "COMMAND":"bjobs",
  "JOBS":1,
  "RECORDS":[
    {
      "JOBID":"123",
      "USER":"nikhil",
      "EXIT_CODE":"",
      "STAT":"EXIT",
      "EXIT_REASON":"TERM_OWNER: job killed by owner",
      "PEND_REASON":""
    }
  ]
}
)";
  const auto jobs = parse_bjobs_json(out);
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].job_id, "123");
  EXPECT_EQ(jobs[0].state, "EXIT");
  EXPECT_EQ(jobs[0].run_state.status, run_status::cancelled);
  EXPECT_TRUE(jobs[0].run_state.finished);
  EXPECT_EQ(jobs[0].reason, "TERM_OWNER: job killed by owner");
  EXPECT_EQ(jobs[0].exit_code, std::nullopt);
}

TEST(LsfQuery, ArrayElementsDoneJobsAndRunLimitsAreReadAsLsfWritesThem) {
  // Values as TheRoddyWMS/BatchEuphoria's recorded bjobs JSON has them: a DONE job's EXIT_CODE
  // is "", its hosts "tbi-cn019:tbi-cn019"; a run-limit kill exits 140 (a DTU job report:
  // "TERM_RUNLIMIT: job killed after reaching LSF run time limit. Exited with exit code 140.").
  const std::string out = R"({"COMMAND":"bjobs","JOBS":3,"RECORDS":[
    {"JOBID":"22005","JOBINDEX":"0","STAT":"DONE","EXIT_CODE":"","EXIT_REASON":"",
     "EXEC_HOST":"tbi-cn019:tbi-cn019","START_TIME":"Dec 28 19:56","FINISH_TIME":"Dec 28 19:56 L"},
    {"JOBID":"7","JOBINDEX":"2","STAT":"EXIT","EXIT_CODE":"140",
     "EXIT_REASON":"TERM_RUNLIMIT: job killed after reaching LSF run time limit",
     "EXEC_HOST":"4*a01:4*a02"},
    {"JOBID":"8","JOBINDEX":"1","STAT":"PEND","EXIT_CODE":"","EXIT_REASON":"",
     "PEND_REASON":"New job is waiting for scheduling;"}]})";
  const auto jobs = parse_bjobs_json(out);
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].job_id, "22005");
  EXPECT_EQ(jobs[0].run_state.status, run_status::ok);
  EXPECT_EQ(jobs[0].exit_code, 0);
  EXPECT_EQ(jobs[0].nodes, "tbi-cn019");
  EXPECT_TRUE(jobs[0].start_time.has_value());
  EXPECT_EQ(jobs[1].job_id, "7[2]");
  EXPECT_EQ(jobs[1].run_state.status, run_status::timeout);
  EXPECT_EQ(jobs[1].exit_code, 140);
  EXPECT_EQ(jobs[1].signal, 12);  // 128 + SIGUSR2, the run limit's warning signal
  EXPECT_EQ(jobs[1].nodes, "a01,a02");
  EXPECT_EQ(jobs[2].job_id, "8[1]");
  EXPECT_EQ(jobs[2].run_state.status, run_status::pending);
  EXPECT_EQ(jobs[2].reason, "New job is waiting for scheduling;");
}

TEST(LsfQuery, TextWithoutTheJsonIsAnError) {
  // glotzerlab/signac-flow#166: -json without -o.
  EXPECT_THROW(parse_bjobs_json("bjobs: You cannot use the -json option when the -o option is "
                                "not specified or the LSB_BJOBS_FORMAT parameter is not defined."),
               SchedulerError);
}

TEST(LsfQuery, ARecordWithoutAStateIsNoJob) {
  const auto jobs = parse_bjobs_json(
      R"({"COMMAND":"bjobs","JOBS":1,"RECORDS":[{"ERROR":"Job <9> is not found"}]})");
  EXPECT_TRUE(jobs.empty());
}

TEST(LsfTime, BjobsTimesWithAndWithoutTheYear) {
  const auto with_year = parse_lsf_time("Feb 21 00:02 2019");
  ASSERT_TRUE(with_year.has_value());
  tm t{};
  const time_t when = static_cast<time_t>(*with_year);
  localtime_r(&when, &t);
  EXPECT_EQ(t.tm_year + 1900, 2019);
  EXPECT_EQ(t.tm_mon, 1);
  EXPECT_EQ(t.tm_mday, 21);
  EXPECT_EQ(t.tm_min, 2);
  EXPECT_TRUE(parse_lsf_time("Dec 28 19:56 L").has_value());
  EXPECT_FALSE(parse_lsf_time("").has_value());
  EXPECT_FALSE(parse_lsf_time("soon").has_value());
}

TEST(LsfStates, EveryStateWordOfIbmsListHasAMeaning) {
  for (const auto& w : lsf_state_words()) {
    const RunState s = lsf_run_state(std::string(w.word), "");
    EXPECT_EQ(s.status, w.status) << w.word;
    EXPECT_EQ(s.finished, w.finished) << w.word;
  }
  EXPECT_EQ(lsf_run_state("PSUSP", "").status, run_status::pending);
  EXPECT_EQ(lsf_run_state("UNKWN", "").finished, false);  // mbatchd lost its host: wait
  EXPECT_EQ(lsf_run_state("ZOMBI", "").status, run_status::node_failure);
}

TEST(LsfStates, AnExitIsJudgedByItsTerminationReason) {
  EXPECT_EQ(lsf_run_state("EXIT", "").status, run_status::failed);
  EXPECT_EQ(lsf_run_state("EXIT", "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit")
                .status,
            run_status::host_oom);
  EXPECT_EQ(lsf_run_state("EXIT", "TERM_PREEMPT: job killed after preemption").status,
            run_status::interrupted);
  EXPECT_EQ(lsf_run_state("EXIT", "TERM_SWAPLIMIT").status, run_status::host_oom);  // LSF 7.3's
  EXPECT_EQ(lsf_run_state("EXIT", "TERM_CWD_NOTEXIST").status, run_status::launch_failed);
  EXPECT_EQ(lsf_run_state("EXIT", "TERM_FORCE_OWNER: job killed by owner without time for cleanup")
                .status,
            run_status::cancelled);
  EXPECT_EQ(lsf_term_reasons().size(), 35u);  // TERM_UNKNOWN (0) .. TERM_RC (34)
  for (size_t i = 0; i < lsf_term_reasons().size(); ++i)
    EXPECT_EQ(lsf_term_reasons()[i].code, static_cast<int>(i));
}

TEST(LsfBackend, DirectivesAsIbmsBsubReferenceWritesThem) {
  const SchedulerBackend& lsf = *find_scheduler_backend("lsf");
  ResourcesSpec r;
  r.nodes = 2;
  r.tasks_per_node = 6;
  r.gpus_per_node = 6;
  r.walltime_s = 5400;
  r.queue = "batch";
  r.account = "csc999";
  r.exclusive = true;
  EXPECT_EQ(lsf.directives(r, JobArray{4, 2, "c-1a2b3c4d"}),
            "#BSUB -J \"c-1a2b3c4d[1-4]%2\"\n#BSUB -n 12\n#BSUB -R \"span[ptile=6]\"\n"
            "#BSUB -gpu \"num=6\"\n#BSUB -W 90\n#BSUB -q batch\n#BSUB -P csc999\n#BSUB -x\n");
  EXPECT_EQ(lsf.directives(ResourcesSpec{}, JobArray{1, 0, "one"}), "#BSUB -J \"one\"\n");
  r.constraint = "gpu";
  EXPECT_THROW(lsf.directives(r, JobArray{}), InputError);
  EXPECT_EQ(lsf.task_index_expression(),
            "$(( ${LSB_JOBINDEX:-0} > 0 ? ${LSB_JOBINDEX:-0} - 1 : 0 ))");
  EXPECT_EQ(lsf.client()->task_id("1000", 0), "1000[1]");
  EXPECT_EQ(lsf.client()->base_id("1000[3]"), "1000");
}

}  // namespace
}  // namespace aerun
