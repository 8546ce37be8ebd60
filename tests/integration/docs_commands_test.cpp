// Docs are promises: every `aerun ...` command shown in a code block of README.md or docs/*.md
// is a command aerun accepts (subcommand, options, option values), checked with
// AERUN_CHECK_ARGS=1, which parses the command line and stops. Placeholders in capitals (FILE,
// CASE) are ordinary arguments to the parser; a synopsis's optional parts ([--dry-run]) are given.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "harness.hpp"

using namespace aerun::testing;

namespace {

struct DocCommand {
  std::string where;  // file:line
  std::vector<std::string> args;
};

// Splits a shell line into words (quotes and backslashes as the shell reads them), up to a
// comment, a pipe, a redirection or a command separator.
std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string w;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\'') {
      const size_t end = line.find('\'', i + 1);
      w += line.substr(i + 1, end - i - 1);
      in_word = true;
      i = end == std::string::npos ? line.size() : end;
    } else if (c == '"') {
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        w += line[i];
      }
      in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      w += line[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(w);
      w.clear();
      in_word = false;
    } else if (!in_word && (c == '#' || c == '|' || c == '>' || c == '<' || c == ';' || c == '&')) {
      break;
    } else if (c == '|' || c == '>' || c == ';' || c == '&') {
      break;
    } else {
      w += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(w);
  return words;
}

std::vector<DocCommand> doc_commands() {
  std::vector<fs::path> files = {fs::path(AERUN_CASES_DIR).parent_path() / "README.md"};
  for (const auto& e : fs::directory_iterator(fs::path(AERUN_CASES_DIR).parent_path() / "docs"))
    if (e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin() + 1, files.end());
  std::vector<DocCommand> out;
  for (const auto& f : files) {
    std::ifstream in(f);
    bool in_block = false;
    std::string line, joined;
    int n = 0, start = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.rfind("```", 0) == 0) {
        in_block = !in_block;
        continue;
      }
      if (!in_block) continue;
      if (joined.empty()) start = n;
      if (!line.empty() && line.back() == '\\') {  // a continued line
        joined += line.substr(0, line.size() - 1) + " ";
        continue;
      }
      joined += line;
      std::string cmd = joined;
      joined.clear();
      cmd.erase(0, cmd.find_first_not_of(" \t"));
      if (cmd.rfind("$ ", 0) == 0) cmd.erase(0, 2);
      std::vector<std::string> words = shell_words(cmd);
      // Leading assignments (AERUN_DB=x aerun ...) are the environment, not arguments.
      while (!words.empty() && words.front().find('=') != std::string::npos &&
             words.front().front() != '-')
        words.erase(words.begin());
      if (words.size() < 2 || words.front() != "aerun") continue;
      words.erase(words.begin());
      // A synopsis ([--only KEY=VALUE ...]) is checked as if every optional part were given.
      std::vector<std::string> args;
      for (std::string w : words) {
        std::erase(w, '[');
        std::erase(w, ']');
        if (!w.empty() && w != "..." && w != "|") args.push_back(w);
      }
      words = args;
      out.push_back({fs::relative(f, fs::path(AERUN_CASES_DIR).parent_path()).string() + ":" +
                         std::to_string(start),
                     words});
    }
  }
  return out;
}

}  // namespace

TEST(DocsCommands, EveryAerunCommandInTheDocsIsOneAerunAccepts) {
  const auto cmds = doc_commands();
  ASSERT_GT(cmds.size(), 30u) << "the docs' commands were not found";
  TempDir d;
  int checked = 0;
  for (const auto& c : cmds) {
    const auto r = run_aerun(d, c.args, "AERUN_CHECK_ARGS=1");
    ++checked;
    std::string shown;
    for (const auto& a : c.args) shown += " " + a;
    EXPECT_EQ(r.code, 0) << c.where << ": aerun" << shown << "\n" << r.err;
  }
  EXPECT_EQ(checked, static_cast<int>(cmds.size()));
}

TEST(DocsCommands, TheCheckRejectsWhatAerunWouldReject) {
  TempDir d;
  EXPECT_EQ(run_aerun(d, {"run", "demo"}, "AERUN_CHECK_ARGS=1").code, 2);  // no such command
  EXPECT_EQ(run_aerun(d, {"table", "x", "--store", "a.db"}, "AERUN_CHECK_ARGS=1").code, 2);
  EXPECT_EQ(run_aerun(d, {"table", "x", "--format", "pdf"}, "AERUN_CHECK_ARGS=1").code, 2);
  EXPECT_EQ(run_aerun(d, {"table", "x", "--format", "csv"}, "AERUN_CHECK_ARGS=1").code, 0);
}
