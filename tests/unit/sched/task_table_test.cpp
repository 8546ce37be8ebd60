// A job array's task table: one escaped line per task beside a script whose size does not grow
// with the runs, and every value read back by the task exactly as aerun wrote it, never run.
#include "sched/task_table.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/captured_command.hpp"
#include "aerun/util/shell_quote.hpp"

using namespace aerun;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("aerun-tt-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

// bash running dir/block.sh in dir.
CommandResult run_block(const fs::path& dir) {
  CommandSettings how;
  how.workdir = dir.string();
  return run_captured({"bash", "block.sh"}, how);
}

JobScriptRequest array_of(const std::vector<std::string>& commands, const std::string& table) {
  JobScriptRequest r;
  r.scheduler = Scheduler::Slurm;
  r.job_name = "c-1234";
  r.output = "/tmp/c_%a.log";
  r.tasks_path = table;
  for (size_t i = 0; i < commands.size(); ++i)
    r.runs.push_back({"key" + std::to_string(i), 0, commands[i],
                      "/tmp/c_" + std::to_string(i) + ".log",
                      "/tmp/c_" + std::to_string(i) + ".stamps"});
  return r;
}

// What task `index` reads into `variable`, by the script lines task_table_block() writes.
std::string read_back(const JobScriptRequest& req, int index, const std::string& variable,
                      const fs::path& dir) {
  std::ofstream(req.tasks_path) << task_table(req);
  std::ofstream(dir / "block.sh") << "aerun_task=" << index << "\n"
                                  << task_table_block(req) << "\nprintf %s \"$" << variable
                                  << "\"\n";
  return run_block(dir).out;
}

}  // namespace

TEST(TaskField, EscapesTheBackslashControlCharactersAndDelOnly) {
  EXPECT_EQ(task_field("echo a\\b"), "echo a\\\\b");
  EXPECT_EQ(task_field("a\nb\tc\x1f"
                       "d\x1b[31m\x7f"),
            "a\\x0ab\\x09c\\x1fd\\x1b[31m\\x7f");
  EXPECT_EQ(task_field("caf\xc3\xa9 'q' \"$x\" %s"), "caf\xc3\xa9 'q' \"$x\" %s");
}

TEST(TaskTable, HasAHeaderThenOneLinePerTaskWhateverTheCommandsHold) {
  const auto req = array_of({"echo 1", "printf 'a\\nb\\n'\necho two lines"}, "/t");
  const std::string table = task_table(req);
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 3);
  EXPECT_THAT(table, HasSubstr("\x1f"
                               "echo 1\n"));
  EXPECT_THAT(table, HasSubstr("printf 'a\\\\nb\\\\n'\\x0aecho two lines\n"));
}

TEST(TaskTable, EachTaskReadsBackItsOwnValuesExactlyAndRunsNone) {
  TempDir d;
  // The shell-injection corpus as written (escapes not decoded: backslashes as they are), and
  // what could break a row, a field or printf %b.
  std::vector<std::string> values;
  std::ifstream in(std::string(AERUN_FIXTURES) + "/hostile/payloads.txt");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("# ", 0) != 0) values.push_back(line);
  for (const char* v :
       {"a\nb",
        "a\x1f"
        "b",
        "\\c stop", "\\x41\\0101\\n", "%b %s %%", "\t lead", "trail \n", "", "a\r", "\xff\xfe"})
    values.emplace_back(v);
  JobScriptRequest req = array_of(values, (d.path / "job.tasks").string());
  req.runs[3].rundir = "/scratch/a b/$(touch PWNED)";
  req.runs[3].log_path = "/logs/it's \\n here.log";
  ASSERT_GT(values.size(), 80u);
  for (size_t i = 0; i < values.size(); ++i)
    EXPECT_EQ(read_back(req, static_cast<int>(i), "AERUN_COMMAND", d.path), values[i])
        << "task " << i;
  EXPECT_EQ(read_back(req, 3, "AERUN_RUNDIR", d.path), req.runs[3].rundir);
  EXPECT_EQ(read_back(req, 3, "AERUN_LOG", d.path), req.runs[3].log_path);
  EXPECT_EQ(read_back(req, 5, "AERUN_RUN_KEY", d.path), "key5");
  for (const auto& e : fs::directory_iterator(d.path))
    EXPECT_EQ(e.path().filename().string().rfind("PWNED", 0), std::string::npos) << e.path();
}

TEST(TaskTable, ATaskWithNoRowStopsWithCode96AndSaysWhy) {
  TempDir d;
  const auto req = array_of({"echo a", "echo b"}, (d.path / "job.tasks").string());
  std::ofstream(req.tasks_path) << task_table(req);
  for (const std::string task : {"2", "x", "-1", "1+1", ""}) {
    std::ofstream(d.path / "block.sh") << "aerun_task=" << shell_quote(task) << "\n"
                                       << task_table_block(req) << "\necho ran\n";
    const CommandResult r = run_block(d.path);
    EXPECT_EQ(r.out + r.err,
              "aerun: this job has no run for task " + task + " in " + req.tasks_path + "\n");
    EXPECT_EQ(r.exit_code, 96);
  }
}

TEST(TaskTable, TheScriptKeepsItsSizeWhateverTheNumberOfRuns) {
  const CaseSpec spec = parse_case("case: c\ncommand: echo\n", "c.yaml", "/tmp");
  const auto script_for = [&](size_t n) {
    return render_job_script(spec, array_of(std::vector<std::string>(n, "echo run"), "/t"));
  };
  const std::string two = script_for(2);
  const std::string many = script_for(20000);
  // Only the run count and the array range grow, by their digits.
  EXPECT_LE(many.size(), two.size() + 16);
  EXPECT_THAT(many, ::testing::Not(HasSubstr("echo run")));
}
