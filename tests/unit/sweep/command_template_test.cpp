#include "aerun/sweep/command_template.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "aerun/util/error.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {
namespace {

using ::testing::HasSubstr;

const SourceLoc kLoc{"/cases/fig.yaml", 30, 10};

struct PipeCloser {
  void operator()(std::FILE* f) const { pclose(f); }
};

// What /bin/sh prints when it runs the command.
std::string run_sh(const std::string& command) {
  std::unique_ptr<std::FILE, PipeCloser> pipe(popen(command.c_str(), "r"));
  if (!pipe) throw std::runtime_error("popen failed");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe.get())) > 0) out.append(buf, n);
  return out;
}

std::string render(const std::string& tmpl, const ParamList& params) {
  std::vector<std::string> names;
  for (const auto& p : params) names.push_back(p.first);
  return CommandTemplate(tmpl, kLoc, names).render(params, "fig7a", 2);
}

TEST(CommandTemplate, ReplacesPlaceholdersByTheirValues) {
  const ParamList p{{"layers", Value::parse("32")}, {"method", Value::parse("zero-offload")}};
  EXPECT_EQ(render("./run.sh -m {method} -l {layers} -l2 {layers}", p),
            "./run.sh -m zero-offload -l 32 -l2 32");
}

TEST(CommandTemplate, QuotesValuesThatAreNotPlainWords) {
  const ParamList p{{"name", Value::of_string("two words")}};
  EXPECT_EQ(render("echo {name}", p), "echo 'two words'");
}

TEST(CommandTemplate, ProvidesCaseAndRepeatBuiltins) {
  const ParamList p{{"a", Value::parse("1")}};
  EXPECT_EQ(render("log_{case}_{repeat}_{a}.txt", p), "log_fig7a_2_1.txt");
}

TEST(CommandTemplate, TheAttemptIsLeftToTheShellSoTheCommandIsTheSameForEveryAttempt) {
  const ParamList p{{"a", Value::parse("1")}};
  const std::string cmd = render("echo out_{a}_try{attempt}.txt", p);
  EXPECT_EQ(cmd, "echo out_1_try\"$AERUN_ATTEMPT\".txt");
  EXPECT_EQ(run_sh("AERUN_ATTEMPT=3; " + cmd), "out_1_try3.txt\n");
}

TEST(CommandTemplate, TheRunDirectoryIsOneWordWhereverItLandsEvenWithSpaces) {
  const ParamList p{{"a", Value::parse("1")}};
  const std::string cmd =
      render("printf '<%s>' {rundir} \"{rundir}_x\" 'in {rundir}' {rundir}/out.{a}", p);
  EXPECT_EQ(run_sh("AERUN_RUNDIR='/scratch/my runs/k1'; " + cmd),
            "</scratch/my runs/k1></scratch/my runs/k1_x><in /scratch/my runs/k1>"
            "</scratch/my runs/k1/out.1>");
}

TEST(CommandTemplate, AParameterNamedLikeABuiltinWins) {
  const ParamList p{{"repeat", Value::parse("x")}};
  EXPECT_EQ(render("echo {repeat}", p), "echo x");
}

class MaliciousValue : public ::testing::TestWithParam<std::string> {};

// The rendered command really run by /bin/sh prints the value byte for byte and runs nothing else.
TEST_P(MaliciousValue, ReachesTheProgramAsOneLiteralWordAndRunsNothing) {
  const std::string marker = "/tmp/aerun_sweep_test_pwned";
  std::filesystem::remove(marker);
  const ParamList p{{"x", Value::of_string(GetParam())}};
  const std::string cmd = render("printf '%s' {x}", p);
  EXPECT_EQ(run_sh(cmd), GetParam()) << cmd;
  EXPECT_FALSE(std::filesystem::exists(marker));
}

// Inside quotes the template wrote, in a command substitution, in a second shell (bash -c '...'
// and bash -c "...") and in a trailing comment: nothing runs; the value arrives as itself where
// it is read as a shell word, as its quoted word where the quotes are the end of it.
TEST_P(MaliciousValue, InsideTheTemplatesOwnQuotesASecondShellOrACommentToo) {
  const std::string marker = "/tmp/aerun_sweep_test_pwned";
  std::filesystem::remove(marker);
  const std::string v = GetParam();
  const ParamList p{{"x", Value::of_string(v)}};
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"x(printf '%s' "{x}")x", shell_quote(v)},
      {R"x(printf '%s' '{x}')x", shell_quote(v)},
      {R"x(v="$(printf '%s' {x}; printf .)"; printf '%s' "${v%.}")x", v},
      {R"x(bash -c 'printf "%s" {x}')x", v},
      {R"x(bash -c "printf '%s' {x}")x", v},
      {R"x(printf '%s' {x} # note: {x} and '{x}')x", v}};
  for (const auto& [tmpl, want] : cases) {
    const std::string cmd = render(tmpl, p);
    EXPECT_EQ(run_sh(cmd), want) << tmpl << "\n" << cmd;
    EXPECT_FALSE(std::filesystem::exists(marker)) << cmd;
  }
}

TEST(CommandTemplate, APlainValueInsideTheTemplatesQuotesIsItselfSoRunKeysStay) {
  const ParamList p{{"m", Value::parse("megatron-lm")}, {"tp", Value::parse("4")}};
  EXPECT_EQ(render(R"x(run -m "{m}" && bash -c 'x --tp {tp}')x", p),
            R"x(run -m "megatron-lm" && bash -c 'x --tp 4')x");
}

TEST(CommandTemplate, AnyOtherValueInsideTheTemplatesQuotesIsItsQuotedWordEscapedForThem) {
  const ParamList p{{"m", Value::of_string("a $c 'f'")}};
  // shell_quote: 'a $c '\''f'\'''
  EXPECT_EQ(render(R"x(run -m "{m}")x", p), R"x(run -m "'a \$c '\\''f'\\'''")x");
  EXPECT_EQ(render("run -m '{m}'", p), R"x(run -m ''\''a $c '\''\'\'''\''f'\''\'\'''\'''\''')x");
  EXPECT_EQ(render("run # {m}", {{"m", Value::of_string("x\ntouch y")}}),
            R"x(run # x\x0atouch y)x");
}

INSTANTIATE_TEST_SUITE_P(
    ShellInjection, MaliciousValue,
    ::testing::Values("$(touch /tmp/aerun_sweep_test_pwned)", "`touch /tmp/aerun_sweep_test_pwned`",
                      ";touch /tmp/aerun_sweep_test_pwned", ";rm -rf /nonexistent-aerun-dir",
                      "it's", "'; touch /tmp/aerun_sweep_test_pwned; '", "line1\nline2\n",
                      "a && touch /tmp/aerun_sweep_test_pwned", "${HOME} $HOME *", "",
                      "  leading and trailing  ", "back\\slash \"dq\" | > < &"));

TEST(CommandTemplate, LeavesShellExpansionsToTheShell) {
  const ParamList p{{"HOME", Value::parse("not-this")}, {"x", Value::parse("1")}};
  EXPECT_EQ(render("cd ${HOME} && echo $HOME $(date +%s) {x}", p),
            "cd ${HOME} && echo $HOME $(date +%s) 1");
}

TEST(CommandTemplate, DoubledBracesAreLiteralBraces) {
  const ParamList p{{"x", Value::parse("7")}};
  EXPECT_EQ(render("echo {{x}} {{{x}}} }}", p), "echo {x} {7} }");
}

TEST(CommandTemplate, ABraceNotStartingAPlaceholderIsLiteral) {
  const ParamList p{{"log", Value::parse("out.txt")}};
  EXPECT_EQ(render("awk '{print $1}' {log} | sed 's/{ }/x/;{' }", p),
            "awk '{print $1}' out.txt | sed 's/{ }/x/;{' }");
}

TEST(CommandTemplate, AnUnknownPlaceholderNamesTheKnownParameters) {
  try {
    CommandTemplate t("run --bs {batch}", kLoc, {"a", "b", "c"});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "command");
    EXPECT_THAT(e.what(), HasSubstr("/cases/fig.yaml:30:10: command: placeholder {batch} has no "
                                    "parameter (known: a, b, c)"));
  }
}

TEST(CommandTemplate, ListsThePlaceholdersItUses) {
  CommandTemplate t("{b} {a} {b} {case}", kLoc, {"a", "b"});
  EXPECT_EQ(t.placeholders(), (std::vector<std::string>{"b", "a", "case"}));
}

TEST(CommandTemplate, TheLaunchLineReplacesEveryLaunchPlaceholderAsItIs) {
  // The line is shell-ready: its braces and quotes reach the shell untouched, and `{{launch}}`
  // stays a literal.
  const std::string line = "mpiexec -n 8 --env X='{a}' ${WRAP:-}";
  CommandTemplate t("{launch} python a.py --n {n}; echo {{launch}} {launch}", kLoc, {"n"}, line);
  EXPECT_EQ(t.render({{"n", Value::parse("4")}}, "c", 0),
            line + " python a.py --n 4; echo {launch} " + line);
}

TEST(CommandTemplate, ACommandWithoutLaunchGetsTheLineInFront) {
  CommandTemplate t("python a.py {n}", kLoc, {"n"}, std::string("srun -N 2"));
  EXPECT_EQ(t.render({{"n", Value::parse("1")}}, "c", 0), "srun -N 2 python a.py 1");
  CommandTemplate no_line("python a.py {n}", kLoc, {"n"}, std::string());
  EXPECT_EQ(no_line.render({{"n", Value::parse("1")}}, "c", 0), "python a.py 1");
}

TEST(CommandTemplate, LaunchWithoutALauncherIsAnUnknownPlaceholder) {
  EXPECT_THROW(CommandTemplate("{launch} a.py", kLoc, {}), InputError);
}

TEST(CommandTemplate, FindsParametersByNameWhenGivenInAnotherOrder) {
  CommandTemplate t("{a}-{b}", kLoc, {"a", "b"});
  const ParamList swapped{{"b", Value::parse("2")}, {"a", Value::parse("1")}};
  EXPECT_EQ(t.render(swapped, "c", 0), "1-2");
}

}  // namespace
}  // namespace aerun
