// Bash completion (scripts/aerun-completion.bash) run by a real bash against the built aerun:
// what a user gets by pressing Tab after each kind of word.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

namespace {

// The words offered for the command line `aerun WORDS...` with the cursor at the end of the last
// word (an empty last word: after a space), sorted, in dir.
std::vector<std::string> tab(const TempDir& dir, const std::vector<std::string>& words) {
  std::string cmd = "cd " + aerun::shell_quote(dir.path().string()) +
                    " && bash -c 'source \"$1\"; shift; COMP_WORDS=(\"$@\"); "
                    "COMP_CWORD=$(($# - 1)); _aerun; printf \"%s\\n\" \"${COMPREPLY[@]}\"' _ " +
                    aerun::shell_quote(AERUN_COMPLETION) + " " + aerun::shell_quote(AERUN_BINARY);
  for (const auto& w : words) cmd += " " + aerun::shell_quote(w);
  std::vector<std::string> out;
  std::istringstream lines(command_output(cmd));
  for (std::string l; std::getline(lines, l);)
    if (!l.empty()) out.push_back(l);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(Completion, SubcommandsThenTheirFlagsAndFixedValues) {
  TempDir d;
  EXPECT_THAT(tab(d, {"ta"}), ElementsAre("table"));
  EXPECT_THAT(tab(d, {"re"}), ElementsAre("regress", "report"));
  // Hidden helpers are not offered.
  EXPECT_THAT(tab(d, {"st"}), IsEmpty());
  EXPECT_THAT(tab(d, {"__"}), IsEmpty());
  EXPECT_THAT(tab(d, {"table", "--f"}), ElementsAre("--format"));
  EXPECT_THAT(tab(d, {"ingest", "--a"}), ElementsAre("--assume-complete"));
  EXPECT_THAT(tab(d, {"table", "fig7a", "--format", ""}),
              UnorderedElementsAre("csv", "html", "json", "latex", "md"));
  EXPECT_THAT(tab(d, {"case", "x.yaml", "--scheduler", "s"}), ElementsAre("slurm"));
  EXPECT_THAT(tab(d, {"--d"}), ElementsAre("--db"));
}

TEST(Completion, CaseFilesTableNamesAndCaseNamesFromTheStore) {
  TempDir d;
  write_file(d / "cases/fig.yaml", R"yaml(case: figs
params: {x: [1, 2]}
command: echo y={x}
metrics: {y: 'y=(\d+)'}
tables:
  fig7a: {rows: [x], columns: [y]}
  fig7b: {rows: [x], columns: [y]}
plots:
  fig7c: {table: fig7a, x: x, y: y}
)yaml");
  write_file(d / "cases/notes.txt", "not a case\n");
  write_file(
      d / "other/more.yaml",
      "case: more\ncommand: echo\nparams: {a: 1}\ntables: {t9: {rows: [a], columns: [wall_s]}}\n");
  EXPECT_THAT(tab(d, {"case", "cases/"}), ElementsAre("cases/fig.yaml"));
  EXPECT_THAT(tab(d, {"table", "fig"}), ElementsAre("fig7a", "fig7b"));
  EXPECT_THAT(tab(d, {"plot", ""}), ElementsAre("fig7c", "figs"));
  // Tables of the case folder given on the line.
  EXPECT_THAT(tab(d, {"table", "--cases", "other", ""}), ElementsAre("t9"));
  // Case names come from the store (none before it exists, and none is created).
  EXPECT_THAT(tab(d, {"runs", "--case", ""}), IsEmpty());
  EXPECT_FALSE(fs::exists(d / "results/aerun.db"));
  ASSERT_EQ(run_aerun(d, {"case", "cases/fig.yaml"}).code, 0);
  EXPECT_THAT(tab(d, {"runs", "--case", ""}), ElementsAre("figs"));
  EXPECT_THAT(tab(d, {"--db", "results/aerun.db", "history", "x", "--case", "f"}),
              ElementsAre("figs"));
  EXPECT_THAT(tab(d, {"runs", "--db", "elsewhere.db", "--case", ""}), IsEmpty());
}
