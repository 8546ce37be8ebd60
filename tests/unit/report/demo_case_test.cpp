// The shipped demo case and the demo workload fit together: its patterns match what the workload
// prints, and its table reads well.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <re2/re2.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "aerun/case/case_loader.hpp"
#include "aerun/report/table.hpp"
#include "table_fixture.hpp"

using namespace aerun;
using namespace aerun::testing;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

// The output lines and exit status of a shell command (stderr folded into stdout).
struct Output {
  std::vector<std::string> lines;
  int exit_code = -1;
};

// Runs a command through popen, closing the pipe on every path.
class Pipe {
 public:
  explicit Pipe(const std::string& cmd) : f_(popen(cmd.c_str(), "r")) {}
  ~Pipe() {
    if (f_) pclose(f_);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;

  Output read_all() {
    Output out;
    if (!f_) return out;
    std::string line;
    for (int ch; (ch = std::fgetc(f_)) != EOF;) {
      if (ch == '\n') {
        out.lines.push_back(line);
        line.clear();
      } else {
        line += static_cast<char>(ch);
      }
    }
    const int status = pclose(f_);
    f_ = nullptr;
    if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
    return out;
  }

 private:
  std::FILE* f_;
};

Output run_demo(const std::string& args) {
  return Pipe(std::string(AERUN_DEMO_TRAIN) + " " + args + " 2>&1").read_all();
}

CaseSpec demo_case() {
  return load_case(std::string(AERUN_CASES_DIR) + "/demo.yaml");
}

const MetricSpec& metric(const CaseSpec& c, const std::string& name) {
  for (const auto& m : c.metrics)
    if (m.name == name) return m;
  throw std::runtime_error("no metric " + name);
}

std::vector<double> captures(const std::vector<std::string>& lines, const std::string& pattern) {
  const RE2 re(pattern);
  std::vector<double> values;
  double v = 0;
  for (const auto& l : lines)
    if (RE2::PartialMatch(l, re, &v)) values.push_back(v);
  return values;
}

int matching_lines(const std::vector<std::string>& lines, const std::string& pattern) {
  const RE2 re(pattern);
  int n = 0;
  for (const auto& l : lines) n += RE2::PartialMatch(l, re) ? 1 : 0;
  return n;
}

}  // namespace

TEST(DemoCase, TheWorkloadPrintsWhatTheCasesPatternsExtractAndItsLossDecreases) {
  const CaseSpec c = demo_case();
  const Output out = run_demo("--hidden 32 --iters 40 --batch 16 --log-interval 10");
  ASSERT_EQ(out.exit_code, 0);

  EXPECT_EQ(matching_lines(out.lines, R"(^Job started at: \d{4}-\d\d-\d\d-\d{6} on \S+$)"), 1);
  EXPECT_EQ(matching_lines(out.lines, c.startup.first_step), 1);
  EXPECT_EQ(matching_lines(out.lines, R"(^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] \[INFO\])"), 1);
  EXPECT_EQ(captures(out.lines, metric(c, "iter_ms").pattern).size(), 4u);
  EXPECT_EQ(captures(out.lines, metric(c, "samples_per_s").pattern).size(), 4u);
  const std::vector<double> loss = captures(out.lines, metric(c, "loss_curve").pattern);
  ASSERT_EQ(loss.size(), 4u);
  EXPECT_LT(loss.back(), loss.front() * 0.9);
  for (const auto& s : c.status) EXPECT_EQ(matching_lines(out.lines, s.pattern), 0);
}

TEST(DemoCase, TheWorkloadFailsLikeACudaOutOfMemoryWhenWiderThanTheLimit) {
  const CaseSpec c = demo_case();
  const Output out = run_demo("--hidden 1024 --oom-above 512");
  EXPECT_EQ(out.exit_code, 1);
  ASSERT_GE(c.status.size(), 1u);  // the case's own pattern, then the base vocabulary
  EXPECT_EQ(c.status[0].status, "oom");
  EXPECT_EQ(c.status[0].loc.file.find("preset "), std::string::npos);
  EXPECT_EQ(matching_lines(out.lines, c.status[0].pattern), 1);
  EXPECT_EQ(matching_lines(out.lines, R"(^RuntimeError: CUDA out of memory\. Tried to allocate)"),
            1);
}

TEST(DemoCase, TheWorkloadRejectsUnknownFlagsWithExitStatus2) {
  const Output out = run_demo("--hiden 64");
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_THAT(out.lines, ElementsAre(HasSubstr("unknown option '--hiden'")));
}

TEST(DemoCase, ItsTableShowsEveryWidthInOrderWithTheOutOfMemoryWidthAsOom) {
  const CaseSpec c = demo_case();
  ASSERT_EQ(c.tables.size(), 1u);
  std::vector<RunRecord> runs;
  for (const char* h : {"256", "128", "192"})
    for (int rep = 0; rep < 2; ++rep) {
      runs.push_back(make_run(params({{"hidden", h}}), "ok",
                              {{"iter_ms", 10.0 + rep}, {"samples_per_s", 3000}, {"loss", 0.75}},
                              rep));
      runs.back().startup_s = 1.2;
    }
  runs.push_back(make_run(params({{"hidden", "1024"}}), "oom"));

  const Table t = build_table(c, c.tables[0], runs);
  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_THAT(t.rows[0].key, ElementsAre("128"));
  EXPECT_THAT(t.rows[3].key, ElementsAre("1024"));
  EXPECT_EQ(t.rows[3].cells[0].text, "OOM");
  EXPECT_THAT(t.columns, ElementsAre("iter_ms", "samples_per_s", "loss", "startup_s"));
  EXPECT_EQ(t.rows[0].cells[0].text, "10.5");  // median of 10 and 11, format .1f
  EXPECT_TRUE(t.rows[0].cells[0].paper.has_value());
  EXPECT_THAT(render_markdown(t), HasSubstr("### " + c.tables[0].title + " (Table D1, aerun demo"));
}
