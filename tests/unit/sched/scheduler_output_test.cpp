// What squeue and `qstat -f -F json` print, read into job reports; array ids both ways.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sched/pbs_client.hpp"
#include "sched/slurm_client.hpp"

using namespace aerun;

TEST(Squeue, ArrayTasksWithStatesReasonsExitCodesAndTimes) {
  // As printed by Slurm >= 23.02 for -O JobArrayID:|,State:|,Reason:|,exit_code:|,StartTime:|,
  // EndTime:| (exit_code is "exit:signal" there: src/squeue/print.c _print_job_exit_code).
  const auto jobs = parse_squeue(
      "7_0|COMPLETED|None|0:0|2026-11-22T02:27:59|2026-11-22T02:28:00|\n"
      "7_2|FAILED|NonZeroExitCode|1:0|2026-11-22T02:27:59|2026-11-22T02:28:00|\n"
      "8|PENDING|Resources|0:0|N/A|N/A|\n");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].job_id, "7_0");
  EXPECT_EQ(jobs[0].run_state.status, "ok");
  EXPECT_EQ(jobs[0].reason, "");
  EXPECT_EQ(jobs[1].exit_code, 1);
  EXPECT_FALSE(jobs[1].signal);
  EXPECT_EQ(jobs[1].reason, "NonZeroExitCode");
  ASSERT_TRUE(jobs[1].start_time && jobs[1].end_time);
  EXPECT_DOUBLE_EQ(*jobs[1].end_time - *jobs[1].start_time, 1.0);
  EXPECT_EQ(jobs[2].run_state.status, "pending");
  EXPECT_EQ(jobs[2].reason, "Resources");
  EXPECT_FALSE(jobs[2].start_time);
  EXPECT_FALSE(jobs[2].exit_code);  // not finished: squeue's 0:0 means nothing yet
}

TEST(Squeue, AKilledJobKeepsItsSignal) {
  // Slurm >= 23.02: `FAILED ... 0:9`; Slurm 22.05 prints the raw wait status (9, 256).
  const auto jobs = parse_squeue(
      "41|FAILED|NonZeroExitCode|0:9|2026-01-05T10:00:00|2026-01-05T10:00:30|\n"
      "42|FAILED|NonZeroExitCode|9|2026-01-05T10:00:00|2026-01-05T10:00:30|\n"
      "43|FAILED|NonZeroExitCode|256|2026-01-05T10:00:00|2026-01-05T10:00:30|\n"
      "44|OUT_OF_MEMORY|OutOfMemory|0:125|2026-01-05T10:00:00|2026-01-05T10:00:30|\n"
      "45|EXPEDITING|None|0:0|N/A|N/A|\n");
  ASSERT_EQ(jobs.size(), 5u);
  EXPECT_EQ(jobs[0].exit_code, 0);
  EXPECT_EQ(jobs[0].signal, 9);
  EXPECT_EQ(jobs[1].exit_code, 0);
  EXPECT_EQ(jobs[1].signal, 9);
  EXPECT_EQ(jobs[2].exit_code, 1);
  EXPECT_FALSE(jobs[2].signal);
  EXPECT_EQ(jobs[3].run_state.status, "host_oom");
  EXPECT_EQ(jobs[4].run_state.status, "pending");
  EXPECT_FALSE(jobs[4].run_state.finished);
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

// The layout OpenPBS 23.06's cJSON writer prints (tabs, "key": TAB value; openpbs#2672 shows it),
// with a subjob killed by SIGKILL (Exit_status 256 + 9: resmom mom_start.c), one deleted after
// repeated launch failures and one killed over its mem limit.
const char* kQstat2306 = R"({
	"timestamp":	1745411711,
	"pbs_version":	"23.06.06",
	"pbs_server":	"pbs01",
	"Jobs":	{
		"20[3].pbs01":	{
			"Job_Name":	"gpt-a1b2c3d4",
			"Job_Owner":	"alice@login01",
			"job_state":	"X",
			"queue":	"workq",
			"Exit_status":	265,
			"stime":	"Tue Apr 22 10:00:00 2025",
			"obittime":	"Tue Apr 22 10:05:00 2025",
			"substate":	93,
			"array_id":	"20[].pbs01",
			"array_index":	"3"
		},
		"21.pbs01":	{
			"Job_Name":	"gpt-e5f6a7b8",
			"job_state":	"F",
			"comment":	"job held, too many failed attempts to run and terminated",
			"Exit_status":	-3,
			"substate":	91
		},
		"22.pbs01":	{
			"job_state":	"F",
			"comment":	"Job run at Tue Apr 22 at 10:00 on (n1:ncpus=8) and exceeded resource mem",
			"Exit_status":	-27,
			"substate":	93,
			"Variable_List":	{
				"PBS_O_HOME":	"/home/alice",
				"PBS_O_PATH":	"/usr/bin:/bin"
			}
		}
	}
})";

TEST(QstatJson, OpenPbs2306ExitStatusesSignalsAndLaunchFailures) {
  const auto jobs = parse_qstat_json(kQstat2306);
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].run_state.status, "failed");
  EXPECT_FALSE(jobs[0].exit_code);
  EXPECT_EQ(jobs[0].signal, 9);
  EXPECT_EQ(jobs[1].run_state.status, "launch_failed");
  EXPECT_EQ(jobs[1].reason,
            "Exit_status=-3; job held, too many failed attempts to run and terminated");
  EXPECT_EQ(jobs[2].run_state.status, "host_oom");
}

TEST(QstatJsonRepair, ValidJsonIsLeftAlone) {
  EXPECT_EQ(repair_qstat_json(kQstat2306), kQstat2306);
}

// Each defect as a public report shows it; the repaired text parses and keeps the value.
TEST(QstatJsonRepair, KnownDefectsAreRepaired) {
  auto value = [](const std::string& bad, const char* key) {
    const auto doc = nlohmann::json::parse(repair_qstat_json(bad));
    return doc.at(key);
  };
  // openpbs PR #2049: \' and \, from PBS's attribute encoding.
  EXPECT_EQ(value(R"({"MYVAR":"\'\"asads\"\'"})", "MYVAR"), "'\"asads\"'");
  EXPECT_EQ(value(R"({"MYVAR":"ab\,c"})", "MYVAR"), "ab,c");
  // Azure/cyclecloud-pbspro#91: a Windows domain user.
  EXPECT_EQ(value(R"({"Job_Owner":"MYDOMAIN\myuser@myhost"})", "Job_Owner"),
            "MYDOMAIN\\myuser@myhost");
  EXPECT_EQ(value(R"({"egroup":"MYDOMAIN\domain users"})", "egroup"), "MYDOMAIN\\domain users");
  // openpbs#1255: numeric-looking environment values written bare.
  EXPECT_EQ(value("{\"foo\":005,\n\"n\":12}", "foo"), "005");
  EXPECT_EQ(value("{\"foo\":005,\n\"n\":12}", "n"), 12);
  // openpbs PR #830: an unescaped quote in a comment.
  EXPECT_EQ(value(R"j({"comment":"HEALTH-CHECK: reboot "zaskly sdileny scratch" (Sep 04)","x":1})j",
                  "comment"),
            "HEALTH-CHECK: reboot \"zaskly sdileny scratch\" (Sep 04)");
  // A raw newline and tab inside a string (a BASH_FUNC_ body, openpbs#2541).
  EXPECT_EQ(value("{\"BASH_FUNC_ml%%\":\"() {  eval $(\\lmod\tbash)\n}\"}", "BASH_FUNC_ml%%"),
            "() {  eval $(\\lmod\tbash)\n}");
}

TEST(QstatJson, BrokenOutputIsRepairedWhileParsing) {
  const auto jobs = parse_qstat_json(
      R"({"Jobs":{"5.s":{"job_state":"F","substate":92,"Exit_status":0,)"
      R"("Job_Owner":"CORP\aerun@login1","Variable_List":{"PBS_O_PATH":"/a\,b","X":007}}}})");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].run_state.status, "ok");
}

TEST(QstatJson, StillInvalidIsASchedulerError) {
  // PBS Pro 14 before openpbs PR #585: `"Jobs":{` before every job, no closing brace.
  EXPECT_THROW(
      parse_qstat_json(R"({"Jobs":{"1.s":{"job_state":"R"},"Jobs":{"2.s":{"job_state":"R"}})"),
      SchedulerError);
}

TEST(QstatFull, PlainFormatWithContinuationLines) {
  // `qstat -f -x` as OpenPBS prints it (src/cmds/qstat.c prt_attr: 4 spaces, " = ", long values
  // continued on lines starting with a tab).
  const auto jobs = parse_qstat_full(
      "Job Id: 30.pbs01\n"
      "    Job_Name = gpt-a1b2c3d4\n"
      "    Job_Owner = CORP\\alice@login01\n"
      "    job_state = F\n"
      "    comment = Job run at Tue Apr 22 at 10:00 on (n1:ncpus=8) and exceeded resour\n"
      "\tce walltime\n"
      "    Exit_status = -29\n"
      "    stime = Tue Apr 22 10:00:00 2025\n"
      "    substate = 93\n"
      "    obittime = Tue Apr 22 11:00:00 2025\n"
      "\n"
      "Job Id: 31.pbs01\n"
      "    job_state = R\n"
      "    substate = 42\n");
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].job_id, "30.pbs01");
  EXPECT_EQ(jobs[0].run_state.status, "timeout");
  EXPECT_EQ(jobs[0].reason,
            "Exit_status=-29; Job run at Tue Apr 22 at 10:00 on (n1:ncpus=8) and exceeded "
            "resource walltime");
  ASSERT_TRUE(jobs[0].start_time && jobs[0].end_time);
  EXPECT_DOUBLE_EQ(*jobs[0].end_time - *jobs[0].start_time, 3600.0);
  EXPECT_EQ(jobs[1].run_state.status, "running");
  EXPECT_THROW(parse_qstat_full("qstat: garbage\n"), SchedulerError);
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

TEST(Squeue, TheNodesOfARunningJobAndNoneWhilePending) {
  // With NodeList as a 7th field (what `aerun watch` shows); pending jobs print "" or "(null)".
  const auto jobs = parse_squeue(
      "9_0|RUNNING|None|0:0|2026-11-22T02:27:59|2026-11-22T02:37:59|gpu[01-02]|\n"
      "9_1|PENDING|Priority|0:0|N/A|N/A|(null)|\n"
      "9_2|PENDING|Priority|0:0|N/A|N/A||\n");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].nodes, "gpu[01-02]");
  EXPECT_EQ(jobs[1].nodes, "");
  EXPECT_EQ(jobs[2].nodes, "");
}

TEST(QstatJson, TheHostsOfExecHostEachOnce) {
  // PBS Pro exec_host: host/slot*ncpus joined by '+', a host once per chunk.
  const auto jobs = parse_qstat_json(R"({"Jobs":{
      "5.pbs":{"job_state":"R","exec_host":"x3001c0s13b0n0/0*64+x3001c0s13b1n0/0*64"},
      "6.pbs":{"job_state":"R","exec_host":"n1/0*2+n1/1*2+n2/0*2"},
      "7.pbs":{"job_state":"Q"}}})");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].nodes, "x3001c0s13b0n0,x3001c0s13b1n0");
  EXPECT_EQ(jobs[1].nodes, "n1,n2");
  EXPECT_EQ(jobs[2].nodes, "");
}

namespace aerun {

// Slurm's words for a busy or unreachable controller (src/common/slurm_errno.c) are worth another
// try; a job that is wrong is not.
TEST(SbatchRefusals, TimeoutsAndAnUnreachableControllerAreTransientABadJobIsNot) {
  SlurmClient slurm;
  for (const char* busy :
       {"sbatch: error: Batch job submission failed: Socket timed out on send/recv operation",
        "sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect "
        "failure)",
        "sbatch: error: Batch job submission failed: Resource temporarily unavailable",
        "sbatch: error: Batch job submission failed: Zero Bytes were transmitted or received"})
    EXPECT_TRUE(slurm.transient(busy)) << busy;
  for (const char* wrong :
       {"sbatch: error: invalid partition specified: gpu_p5",
        "sbatch: error: Batch job submission failed: Invalid job array specification",
        "sbatch: error: Batch job submission failed: Job violates accounting/QOS policy (job "
        "submit limit, user's size and/or time limits)"})
    EXPECT_FALSE(slurm.transient(wrong)) << wrong;
}

TEST(QsubRefusals, AnUnreachableServerIsTransientAnOversizedArrayIsNot) {
  PbsClient pbs;
  EXPECT_TRUE(
      pbs.transient("qsub rejected the job: Connection refused\nqsub: cannot connect to "
                    "server pbs01 (errno=15010)"));
  EXPECT_TRUE(pbs.transient("qsub: No free connections"));
  EXPECT_FALSE(pbs.transient("qsub: Array job exceeds server or queue size limit"));
  EXPECT_FALSE(pbs.transient("qsub: Unknown queue"));
}

}  // namespace aerun

TEST(Sacct, ReadsTheBooksOfAnArrayAndAJobCancelledWhilePending) {
  // tests/fixtures/sched/README.md: Slurm 22.05.8 with slurmdbd, as the test cluster printed it.
  std::ifstream in(std::string(AERUN_FIXTURES) + "/sched/sacct_22.05_array_and_pending.txt");
  std::stringstream text;
  text << in.rdbuf();
  const auto jobs = parse_sacct(text.str());
  ASSERT_EQ(jobs.size(), 4u);  // one report per job or task; steps only lend their memory
  EXPECT_EQ(jobs[0].job_id, "1_0");
  EXPECT_EQ(jobs[0].run_state.status, "ok");
  EXPECT_EQ(jobs[0].exit_code, 0);
  EXPECT_EQ(jobs[0].nodes, "n1");
  EXPECT_EQ(jobs[0].max_rss_kb, 79925248 / 1024);  // the .batch step's bytes
  ASSERT_TRUE(jobs[0].start_time && jobs[0].end_time);
  EXPECT_DOUBLE_EQ(*jobs[0].end_time - *jobs[0].start_time, 3.0);
  EXPECT_EQ(jobs[1].state, "FAILED");
  EXPECT_EQ(jobs[1].exit_code, 3);
  EXPECT_EQ(jobs[2].state, "CANCELLED");  // "CANCELLED by 0": the requester's uid apart
  EXPECT_EQ(jobs[2].reason, "by 0");
  EXPECT_EQ(jobs[2].run_state.status, "cancelled");
  EXPECT_EQ(jobs[3].job_id, "4");
  EXPECT_FALSE(jobs[3].start_time);  // None
  EXPECT_TRUE(jobs[3].end_time);
  EXPECT_EQ(jobs[3].nodes, "");  // None assigned
  EXPECT_FALSE(jobs[3].max_rss_kb);
}

// sacct reads SLURM_TIME_FORMAT with getenv (the first entry): a user's own setting is replaced,
// never left in front of aerun's `%s`.
TEST(Sacct, AUsersOwnTimeFormatIsReplacedNotShadowing) {
  namespace fs = std::filesystem;
  std::string t = (fs::temp_directory_path() / "aerun-sacct-XXXXXX").string();
  const fs::path dir = ::mkdtemp(t.data());
  // A stand-in sacct: how many SLURM_TIME_FORMAT entries it was started with, as its node list,
  // and the first one's value as its start time.
  std::ofstream(dir / "sacct")
      << "#!/bin/bash\nn=$(tr '\\0' '\\n' < /proc/$$/environ | grep -c '^SLURM_TIME_FORMAT=')\n"
         "first=$(tr '\\0' '\\n' < /proc/$$/environ | grep -m1 '^SLURM_TIME_FORMAT=')\n"
         "[ \"$first\" = SLURM_TIME_FORMAT=%s ] && start=100 || start=2024-05-01T10:00:00\n"
         "echo \"7|COMPLETED|0:0|$start|200|n$n|\"\n";
  fs::permissions(dir / "sacct", fs::perms::owner_all);
  const std::string path = std::getenv("PATH");
  ::setenv("PATH", (dir.string() + ":" + path).c_str(), 1);
  ::setenv("SLURM_TIME_FORMAT", "standard", 1);
  SlurmClient slurm;
  const auto books = slurm.accounting({"7"});
  ::setenv("PATH", path.c_str(), 1);
  ::unsetenv("SLURM_TIME_FORMAT");
  fs::remove_all(dir);
  ASSERT_TRUE(books);
  ASSERT_EQ(books->size(), 1u);
  EXPECT_EQ((*books)[0].nodes, "n1");
  EXPECT_EQ((*books)[0].start_time, 100);
}
