// Job scripts: the template syntax, the directives of each scheduler from `resources`, and a
// rendered script that bash accepts, runs and stamps.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "aerun/case/case_loader.hpp"
#include "aerun/sched/job_stamps.hpp"
#include "aerun/util/shell_quote.hpp"
#include "sched/job_script.hpp"
#include "sched/task_table.hpp"

using namespace aerun;
using ::testing::HasSubstr;

namespace {

CaseSpec case_with(const std::string& resources) {
  return parse_case("case: c\ncommand: echo hi\nresources:\n" + resources, "c.yaml", "/tmp");
}

JobScriptRequest request(Scheduler s, int runs) {
  JobScriptRequest r;
  r.scheduler = s;
  r.job_name = "c-1234";
  r.output = "/tmp/c_%a.log";
  for (int i = 0; i < runs; ++i)
    r.runs.push_back({"key" + std::to_string(i), 0, "echo run " + std::to_string(i),
                      "/tmp/c_" + std::to_string(i) + ".log",
                      "/tmp/c_" + std::to_string(i) + ".stamps"});
  return r;
}

}  // namespace

TEST(FillTemplate, RawAndQuotedValuesAndEmptyLinesDropped) {
  const std::string out = fill_template("a={{x}}\n{{empty}}\nb={{y|q}}\n",
                                        {{"x", "1"}, {"y", "it's"}, {"empty", ""}}, "t");
  EXPECT_EQ(out, "a=1\nb='it'\\''s'\n");
}

TEST(FillTemplate, UnknownPlaceholderNamesFileLineAndTheKnownOnes) {
  try {
    fill_template("ok\n  {{nodez}}\n", {{"nodes", "2"}}, "my.tmpl");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(),
                HasSubstr("my.tmpl:2:3: template: unknown placeholder {{nodez}} (known: nodes)"));
  }
}

TEST(Directives, SlurmSpellsEveryResourceAndTheArrayCap) {
  const CaseSpec spec = case_with(
      "  nodes: 4\n  gpus_per_node: 8\n  walltime: 100h\n  partition: gpu_p5\n  account: ajs@a100\n"
      "  constraint: a100\n  exclusive: true\n  extra: ['--mail-type=END']\n");
  auto req = request(Scheduler::Slurm, 5);
  req.array_cap = 2;
  EXPECT_EQ(scheduler_directives(spec, req),
            "#SBATCH --nodes=4\n#SBATCH --gpus-per-node=8\n#SBATCH --time=100:00:00\n"
            "#SBATCH --partition=gpu_p5\n#SBATCH --account=ajs@a100\n#SBATCH --constraint=a100\n"
            "#SBATCH --exclusive\n#SBATCH --array=0-4%2\n#SBATCH --mail-type=END\n");
}

TEST(Directives, PbsProSelectWalltimePlaceFilesystemsProjectQueue) {
  const CaseSpec spec = case_with(
      "  nodes: 2\n  gpus_per_node: 4\n  tasks_per_node: 4\n  walltime: 30m\n  queue: debug\n"
      "  project: datascience\n  filesystems: home:eagle\n  place: scatter\n  exclusive: true\n");
  EXPECT_EQ(scheduler_directives(spec, request(Scheduler::Pbs, 1)),
            "#PBS -l select=2:ncpus=4:ngpus=4:mpiprocs=4\n#PBS -l walltime=00:30:00\n"
            "#PBS -l place=scatter:excl\n#PBS -l filesystems=home:eagle\n#PBS -A datascience\n"
            "#PBS -q debug\n");
}

TEST(Resources, ValuesThatCouldBreakADirectiveLineAreRejectedAtLoad) {
  EXPECT_THROW(case_with("  partition: 'a b'\n"), InputError);
  EXPECT_THROW(case_with("  account: 'x;rm'\n"), InputError);
  EXPECT_THROW(case_with("  walltime: 10s\n"), InputError);
  EXPECT_THROW(case_with("  queue: a\n  partition: b\n"), InputError);
  EXPECT_THROW(case_with("  nodez: 2\n"), InputError);
}

TEST(RenderedScript, LocalScriptRunsTheChosenRunAndStampsStartAndEnd) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("aerun-js-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  CaseSpec spec =
      parse_case("case: c\ncommand: echo hi\n", (dir / "c.yaml").string(), dir.string());
  JobScriptRequest req;
  req.scheduler = Scheduler::None;
  req.job_name = "c-x";
  for (int i = 0; i < 2; ++i) {
    const std::string base = (dir / ("r" + std::to_string(i))).string();
    req.runs.push_back({"k" + std::to_string(i), i,
                        "echo \"run $AERUN_RUN_KEY\"; exit " + std::to_string(i * 3), base + ".log",
                        base + ".stamps"});
  }
  req.tasks_path = (dir / "job.tasks").string();
  std::ofstream(req.tasks_path) << task_table(req);
  const std::string script = (dir / "job.sh").string();
  std::ofstream(script) << render_job_script(spec, req);
  EXPECT_EQ(WEXITSTATUS(std::system(("bash " + shell_quote(script) + " 1").c_str())), 3);
  std::ifstream log(req.runs[1].log_path);
  std::string line;
  std::getline(log, line);
  EXPECT_EQ(line, "run k1");
  const JobStamps st = read_job_stamps(req.runs[1].stamps_path);
  ASSERT_TRUE(st.start && st.end);
  EXPECT_LE(*st.start, *st.end);
  EXPECT_EQ(st.exit_code, 3);
  EXPECT_FALSE(fs::exists(req.runs[0].log_path));
  fs::remove_all(dir);
}

// `stall: "{stall}"`: each task of the job runs the watchdog with its own point's value, inside
// the job (aerun stamp-output), and stamps `stalled` only where its value was exceeded.
TEST(RenderedScript, PerPointWatchdogsGiveEachTaskItsOwnValue) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("aerun-jsw-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  CaseSpec spec = parse_case(
      "case: c\nparams: {stall: [0.5, 30]}\ncommand: echo\nmetrics:\n  step: {regex: 'step "
      "(\\d+)', progress: true}\nstall: \"{stall}\"\n",
      (dir / "c.yaml").string(), dir.string());
  JobScriptRequest req;
  req.scheduler = Scheduler::None;
  req.job_name = "c-x";
  req.aerun_binary = AERUN_BINARY;
  for (int i = 0; i < 2; ++i) {
    const std::string base = (dir / ("r" + std::to_string(i))).string();
    ScriptRun r{"k" + std::to_string(i), 0, "echo 'step 1'; sleep 2; echo 'step 2'", base + ".log",
                base + ".stamps"};
    r.stall_s = i == 0 ? 0.5 : 30;
    req.runs.push_back(r);
  }
  req.tasks_path = (dir / "job.tasks").string();
  const std::string table = task_table(req);
  std::ofstream(req.tasks_path) << table;
  EXPECT_THAT(table, HasSubstr(".stamps\x1f"
                               "0.5\x1f"));
  EXPECT_THAT(table, HasSubstr(".stamps\x1f"
                               "30\x1f"));
  const std::string text = render_job_script(spec, req);
  EXPECT_THAT(text, HasSubstr("--stall \"$aerun_stall\""));
  const std::string script = (dir / "job.sh").string();
  std::ofstream(script) << text;
  // Each task in a process group of its own, as a batch job is (the watchdog stops its group).
  for (int task = 0; task < 2; ++task)
    std::system(("setsid -w bash " + shell_quote(script) + " " + std::to_string(task)).c_str());
  const JobStamps stalled = read_job_stamps(req.runs[0].stamps_path);
  EXPECT_EQ(stalled.stall_s, 0.5);
  EXPECT_EQ(stalled.stall_line, "step 1");
  const JobStamps ok = read_job_stamps(req.runs[1].stamps_path);
  EXPECT_EQ(ok.stall_s, 0);
  EXPECT_EQ(ok.exit_code, 0);
  fs::remove_all(dir);
}

// A job's Python writes its lines as it prints them (PYTHONUNBUFFERED=1), unless the environment
// the job was submitted with or the case's `env:` says otherwise: the case is exported after it.
TEST(RenderedScript, PythonIsUnbufferedUnlessTheJobOrTheCaseSaysOtherwise) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("aerun-jsp-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  JobScriptRequest req;
  req.scheduler = Scheduler::None;
  req.job_name = "c-x";
  const std::string base = (dir / "r0").string();
  req.runs.push_back(
      {"k0", 0, "echo \"[${PYTHONUNBUFFERED-unset}]\"", base + ".log", base + ".stamps"});
  const auto seen = [&](const std::string& case_env, const std::string& job_env) {
    CaseSpec spec = parse_case("case: c\ncommand: echo hi\n" + case_env, (dir / "c.yaml").string(),
                               dir.string());
    const std::string script = (dir / "job.sh").string();
    std::ofstream(script) << render_job_script(spec, req);
    std::system(
        ("env -u PYTHONUNBUFFERED " + job_env + " bash " + shell_quote(script) + " 0").c_str());
    std::ifstream log(req.runs[0].log_path);
    std::string line;
    std::getline(log, line);
    return line;
  };
  EXPECT_EQ(seen("", ""), "[1]");
  EXPECT_EQ(seen("", "PYTHONUNBUFFERED="), "[]");
  EXPECT_EQ(seen("env: {PYTHONUNBUFFERED: \"\"}\n", ""), "[]");
  fs::remove_all(dir);
}
