// The `launcher:` section of a case file, and `{launch}` in the command.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aerun/case/case_loader.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

CaseSpec load(const std::string& yaml) {
  return parse_case(yaml, "fig.yaml", "/cases");
}

std::string error_of(const std::string& yaml) {
  try {
    load(yaml);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for:\n" << yaml;
  return "";
}

TEST(LauncherSection, AbsentMeansNoLauncher) {
  EXPECT_FALSE(load("case: c\ncommand: ./train\n").launcher);
}

TEST(LauncherSection, ANameAloneChoosesTheKind) {
  const CaseSpec s = load("case: c\nlauncher: pals\ncommand: '{launch} ./train'\n");
  ASSERT_TRUE(s.launcher);
  EXPECT_EQ(s.launcher->kind, "pals");
  EXPECT_FALSE(s.launcher->ranks_per_node) << "default: one rank per GPU";
  EXPECT_EQ(s.launcher->loc.line, 2);
}

TEST(LauncherSection, EveryKeyIsRead) {
  const CaseSpec s = load(
      "case: c\n"
      "launcher:\n"
      "  kind: srun\n"
      "  ranks_per_node: 4\n"
      "  nodes: 2\n"
      "  ranks: 8\n"
      "  cpu_bind: depth\n"
      "  depth: 16\n"
      "  gpu_bind: closest\n"
      "  extra_args: [--exclusive, --label]\n"
      "  env: [NCCL_DEBUG]\n"
      "  gpus_per_node: 4\n"
      "  hostfile: hosts/h.txt\n"
      "  mpi: openmpi\n"
      "  program: /opt/slurm/bin/srun\n"
      "  master_port: 6000\n"
      "command: ./train\n");
  const LauncherSpec& l = *s.launcher;
  EXPECT_EQ(l.kind, "srun");
  EXPECT_EQ(l.ranks_per_node, 4);
  EXPECT_EQ(l.nodes, 2);
  EXPECT_EQ(l.ranks, 8);
  EXPECT_EQ(l.cpu_bind, "depth");
  EXPECT_EQ(l.depth, 16);
  EXPECT_EQ(l.gpu_bind, "closest");
  EXPECT_THAT(l.extra_args, ElementsAre("--exclusive", "--label"));
  EXPECT_THAT(l.env, ElementsAre("NCCL_DEBUG"));
  EXPECT_EQ(l.gpus_per_node, 4);
  EXPECT_EQ(l.hostfile, "/cases/hosts/h.txt");
  EXPECT_EQ(l.mpi, "openmpi");
  EXPECT_EQ(l.program, "/opt/slurm/bin/srun");
  EXPECT_EQ(l.master_port, 6000);
}

TEST(LauncherSection, RanksPerNodeGpusIsTheDefaultSpelledOut) {
  const CaseSpec s = load("case: c\nlauncher: {kind: mpich, ranks_per_node: gpus}\ncommand: ./t\n");
  EXPECT_FALSE(s.launcher->ranks_per_node);
}

TEST(LauncherSection, LaunchIsAPlaceholderOnlyWithALauncher) {
  EXPECT_EQ(load("case: c\nlauncher: mpich\ncommand: cd x && {launch} ./t\n").command,
            "cd x && {launch} ./t");
  EXPECT_THAT(error_of("case: c\ncommand: '{launch} ./t'\n"),
              HasSubstr("placeholder '{launch}' names no parameter"));
}

TEST(LauncherSection, MistakesNameFileLineColumnAndKey) {
  EXPECT_THAT(error_of("case: c\ncommand: ./t\nlauncher: mpiexec\n"),
              StartsWith("fig.yaml:3:11: launcher: unknown launcher 'mpiexec'"));
  EXPECT_THAT(error_of("case: c\ncommand: ./t\nlauncher:\n  kind: mpich\n  ranks_per_node: all\n"),
              StartsWith("fig.yaml:5:19: launcher.ranks_per_node: expected 'gpus' or a number"));
  EXPECT_THAT(error_of("case: c\ncommand: ./t\nlauncher:\n  kind: pals\n  cpu_bind: deep\n"),
              AllOf(StartsWith("fig.yaml:5:13: launcher.cpu_bind: unknown cpu_bind 'deep'"),
                    HasSubstr("use none, core, socket, hwthread, numa, depth, aurora or list:")));
  EXPECT_THAT(error_of("case: c\ncommand: ./t\nlauncher:\n  kind: pals\n  rank: 4\n"),
              AllOf(StartsWith("fig.yaml:5:3: launcher.rank: unknown key"),
                    HasSubstr("did you mean 'ranks'")));
  EXPECT_THAT(error_of("case: c\ncommand: ./t\nlauncher:\n  ranks: 4\n"),
              HasSubstr("launcher: missing required key 'kind'"));
  EXPECT_THAT(error_of("case: c\ncommand: ./t\nlauncher:\n  kind: mpich\n  nodes: 0\n"),
              StartsWith("fig.yaml:5:10: launcher.nodes: must be at least 1"));
  EXPECT_THAT(error_of("case: c\ncommand: ./t\nlauncher:\n  kind: mpich\n  env: [A-B]\n"),
              HasSubstr("'A-B' is not a variable name"));
  EXPECT_THAT(error_of("case: c\ncommand: ./t\nlauncher: {kind: none, ranks: 4}\n"),
              HasSubstr("runs a single process"));
}

}  // namespace
}  // namespace aerun
