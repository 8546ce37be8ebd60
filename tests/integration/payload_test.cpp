// The payload corpus (tests/fixtures/hostile/payloads.txt): shell-injection strings as parameter
// values reach the command as exactly their bytes, and none of them runs — in a local run, in a
// dry run piped into bash, and in Slurm and PBS job scripts run by bash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>

#include "harness.hpp"

using namespace aerun::testing;

namespace {

// The corpus, escapes decoded: \n \t \r \e \xNN \\ (any other backslash stays as it is).
std::vector<std::string> payloads() {
  std::ifstream in(std::string(AERUN_FIXTURES) + "/hostile/payloads.txt");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# ", 0) == 0) continue;
    std::string v;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] != '\\' || i + 1 == line.size()) {
        v += line[i];
        continue;
      }
      const char c = line[i + 1];
      if (c == 'n' || c == 't' || c == 'r' || c == 'e' || c == '\\') {
        v += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c == 'e' ? '\x1b' : '\\';
        ++i;
      } else if (c == 'x' && i + 3 < line.size()) {
        v += static_cast<char>(std::stoi(line.substr(i + 2, 2), nullptr, 16));
        i += 3;
      } else {
        v += '\\';
      }
    }
    out.push_back(v);
  }
  return out;
}

// A YAML double-quoted scalar holding exactly s.
std::string yaml_quoted(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

// The case: point i writes its payload with printf to plain/i (placeholder outside quotes), dq/i
// and sq/i (inside double / single quotes the command wrote), sub/i (in a command substitution
// inside double quotes), bashsq/i and bashdq/i (in the script of a second shell, bash -c '...' and
// bash -c "..."); a # comment at the end holds it too.
std::string payload_case(const std::vector<std::string>& ps) {
  std::string idx, vals;
  for (size_t i = 0; i < ps.size(); ++i) {
    idx += (i ? ", " : "") + std::to_string(i);
    vals += std::string(i ? ",\n        " : "") + yaml_quoted(ps[i]);
  }
  return "case: payloads\nzip:\n  - i: [" + idx + "]\n    p: [" + vals +
         "]\ncommand: >-\n  mkdir -p plain dq sq sub bashsq bashdq && printf %s {p} > plain/{i} "
         "&&\n"
         "  printf %s \"{p}\" > dq/{i} && printf %s '{p}' > sq/{i} &&\n"
         "  x=\"$(printf %s {p}; printf .)\" && printf %s \"${x%.}\" > sub/{i} &&\n"
         "  bash -c 'printf %s {p} > bashsq/{i}' && bash -c \"printf %s {p} > bashdq/{i}\"\n"
         "  # {p} and '{p}'\n";
}

// Every payload came through — as its bytes where it is read as a shell word (outside quotes, in
// a command substitution, in a second shell's script), as its quoted word inside quotes the
// command wrote (docs/case-format.md) — and nothing named PWNED* was made anywhere under dir.
void expect_delivered_and_nothing_ran(const fs::path& dir, const std::vector<std::string>& ps,
                                      const std::string& how) {
  for (const char* where : {"plain", "sub", "bashsq", "bashdq", "dq", "sq"})
    for (size_t i = 0; i < ps.size(); ++i) {
      const bool quoted = std::string(where) == "dq" || std::string(where) == "sq";
      EXPECT_EQ(read_file((dir / where / std::to_string(i)).string()),
                quoted ? aerun::shell_quote(ps[i]) : ps[i])
          << how << ": payload " << i << " in " << where;
    }
  for (const auto& e : fs::recursive_directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find("PWNED"), std::string::npos)
        << how << " ran a payload: " << e.path();
}

}  // namespace

TEST(PayloadCorpus, HoldsAtLeastSixtyPayloads) {
  EXPECT_GE(payloads().size(), 60u);
}

TEST(PayloadCorpus, NoneRunsInALocalRunAndEachArrivesAsItsBytes) {
  const auto ps = payloads();
  TempDir d;
  write_file(d / "c.yaml", payload_case(ps));
  const auto r = run_aerun(d, {"case", "c.yaml", "-j", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  expect_delivered_and_nothing_ran(d.path(), ps, "a local run");
}

TEST(PayloadCorpus, NoneRunsFromADryRunPipedIntoBash) {
  const auto ps = payloads();
  TempDir d;
  write_file(d / "c.yaml", payload_case(ps));
  const auto r = run_aerun(d, {"case", "c.yaml", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  write_file(d / "dry.sh", r.out);
  ASSERT_EQ(std::system(
                ("cd " + aerun::shell_quote(d.path().string()) + " && bash dry.sh >/dev/null 2>&1")
                    .c_str()),
            0);
  expect_delivered_and_nothing_ran(d.path(), ps, "the dry run");
}

TEST(PayloadCorpus, NoneRunsFromSlurmOrPbsJobScripts) {
  const auto ps = payloads();
  for (const std::string scheduler : {"slurm", "pbs"}) {
    TempDir d;
    write_file(d / "c.yaml", payload_case(ps));
    const auto r = run_aerun(d, {"case", "c.yaml", "--scheduler", scheduler, "--dry-run"});
    ASSERT_EQ(r.code, 0) << r.err;
    std::string script;
    for (const auto& e : fs::recursive_directory_iterator(d / "results"))
      if (e.path().extension() == ".sbatch" || e.path().extension() == ".pbs" ||
          e.path().extension() == ".sh")
        script = e.path().string();
    ASSERT_FALSE(script.empty()) << scheduler;
    const std::string var = scheduler == "slurm" ? "SLURM_ARRAY_TASK_ID" : "PBS_ARRAY_INDEX";
    for (size_t i = 0; i < ps.size(); ++i)
      ASSERT_EQ(std::system(("cd " + aerun::shell_quote(d.path().string()) + " && " + var + "=" +
                             std::to_string(i) + " bash " + aerun::shell_quote(script) +
                             " >/dev/null 2>&1")
                                .c_str()),
                0)
          << scheduler << " task " << i;
    expect_delivered_and_nothing_ran(d.path(), ps, scheduler + " job script");
  }
}
