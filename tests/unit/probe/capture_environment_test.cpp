// The environment record as taken: machine facts, the environment with secrets redacted, tools
// found in the runs' PATH (and only those), git state, the case file, the case's own commands.
#include "aerun/probe/capture_environment.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "aerun/util/secret_text.hpp"
#include "aerun/util/sha256.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class TempDir {
 public:
  TempDir() {
    std::string t = (fs::temp_directory_path() / "aerun-probe-XXXXXX").string();
    path_ = mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void write(const std::string& path, const std::string& text, bool executable = false) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
  if (executable) chmod(path.c_str(), 0755);
}

// A PATH of only this bin dir and the basics the fake tools need (sh, cat, sleep).
CaptureOptions options_with_bin(const TempDir& d) {
  CaptureOptions o;
  fs::create_directories(d / "bin");
  for (const char* tool : {"sh", "bash", "cat", "sleep", "echo", "git"})
    for (const char* dir : {"/usr/bin/", "/bin/"})
      if (fs::exists(std::string(dir) + tool) && !fs::exists(d / ("bin/" + std::string(tool)))) {
        fs::create_symlink(std::string(dir) + tool, d / ("bin/" + std::string(tool)));
        break;
      }
  o.env = {{"PATH", d / "bin"}, {"HOME", d.path()}};
  o.workdir = d.path();
  o.tool_timeout_s = 10;
  return o;
}

TEST(SecretVariable, NamesHoldingTokensKeysPasswordsAndCredentialsInAnyCase) {
  for (const char* n : {"HF_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "MYSQL_PASSWD",
                        "GOOGLE_APPLICATION_CREDENTIALS", "SSH_AUTH_SOCK", "wandb_api_key",
                        "github_token", "Secret"})
    EXPECT_TRUE(secret_variable(n)) << n;
  for (const char* n : {"PATH", "HOME", "OMP_NUM_THREADS", "CUDA_VISIBLE_DEVICES", "NCCL_DEBUG"})
    EXPECT_FALSE(secret_variable(n)) << n;
}

TEST(RedactedEnvironment, SortedByNameSecretsReplacedAndOneLinePerVariable) {
  const EnvVars env = {{"ZETA", "1"},
                       {"WANDB_API_KEY", "abc123"},
                       {"ALPHA", "x"},
                       {"BASH_FUNC_module%%", "() {  eval $(lmod bash \"$@\")\n}"}};
  EXPECT_EQ(redacted_environment(env),
            "ALPHA=x\n"
            "BASH_FUNC_module%%=() {  eval $(lmod bash \"$@\")\\n}\n"
            "WANDB_API_KEY=" +
                aerun::redacted_secret("WANDB_API_KEY", "abc123") +
                "\n"
                "ZETA=1\n");
}

TEST(CaptureEnvironment, MachineFactsAndTheEnvironmentWithSecretsRedacted) {
  TempDir d;
  CaptureOptions o = options_with_bin(d);
  o.env.push_back({"HF_TOKEN", "hf_verysecret"});
  o.env.push_back({"OMP_NUM_THREADS", "8"});
  const EnvRecord rec = capture_environment(o);
  for (const char* part : {"os", "kernel", "cpu", "memory", "environment"})
    ASSERT_NE(rec.find(part), nullptr) << part;
  EXPECT_THAT(rec.find("kernel")->text, StartsWith("Linux "));
  EXPECT_THAT(rec.find("cpu")->text, HasSubstr("logical cpus: "));
  EXPECT_THAT(rec.find("memory")->text, StartsWith("total "));
  const std::string& env = rec.find("environment")->text;
  EXPECT_THAT(env, HasSubstr("HF_TOKEN=<redacted sha256:"));
  EXPECT_THAT(env, HasSubstr("OMP_NUM_THREADS=8"));
  for (const auto& item : rec.items) EXPECT_THAT(item.text, Not(HasSubstr("hf_verysecret")));
  // Nothing else is in this PATH: no tool parts, no git (the temp dir is no repository).
  EXPECT_EQ(rec.find("mpiexec --version"), nullptr);
  EXPECT_EQ(rec.find("nvidia-smi"), nullptr);
  EXPECT_EQ(rec.find("pip freeze"), nullptr);
  EXPECT_EQ(rec.find("git"), nullptr);
  EXPECT_EQ(rec.find("modules"), nullptr);
}

TEST(CaptureEnvironment, ToolsAreFoundAndRunInTheRunsPathAndEnvironment) {
  TempDir d;
  CaptureOptions o = options_with_bin(d);
  write(d / "bin/nvidia-smi",
        "#!/bin/sh\necho \"index, name, uuid\"\necho \"0, NVIDIA A100-SXM4-40GB, GPU-1234\"\n",
        true);
  write(d / "bin/mpiexec", "#!/bin/sh\necho \"HYDRA build details: Version: 4.0.2\"\n", true);
  write(d / "bin/python",
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo \"Python 3.11.2\"; exit; }\n"
        "echo \"torch==2.1.0\"; echo \"numpy==$NUMPY_VERSION\"\n",
        true);
  o.env.push_back({"NUMPY_VERSION", "1.26.4"});
  o.env.push_back({"LOADEDMODULES", "gcc/12.2:cuda/12.2::openmpi/4.1"});
  const EnvRecord rec = capture_environment(o);
  ASSERT_NE(rec.find("nvidia-smi"), nullptr);
  EXPECT_EQ(rec.find("nvidia-smi")->status, "");
  EXPECT_THAT(rec.find("nvidia-smi")->text, HasSubstr("A100-SXM4-40GB"));
  EXPECT_THAT(rec.find("mpiexec --version")->text, HasSubstr("Version: 4.0.2"));
  EXPECT_EQ(rec.find("mpirun --version"), nullptr);
  EXPECT_EQ(rec.find("python --version")->text, "Python 3.11.2");
  EXPECT_EQ(rec.find("pip freeze")->text, "torch==2.1.0\nnumpy==1.26.4");
  EXPECT_EQ(rec.find("modules")->text, "gcc/12.2\ncuda/12.2\nopenmpi/4.1");
}

TEST(CaptureEnvironment, TheCasesCommandsAreRecordedEvenWhenTheyFailOrHang) {
  TempDir d;
  CaptureOptions o = options_with_bin(d);
  o.commands = {{"torch", "echo 2.1.0+cu121", 10},
                {"broken", "echo 'no module named torch' >&2; exit 3", 10},
                {"hangs", "sleep 30", 0.3},
                {"here", "cat marker.txt", 10}};
  write(d / "marker.txt", "in the workdir\n");
  const EnvRecord rec = capture_environment(o);
  ASSERT_NE(rec.find("provenance torch"), nullptr);
  EXPECT_EQ(rec.find("provenance torch")->status, "");
  EXPECT_EQ(rec.find("provenance torch")->text, "2.1.0+cu121");
  EXPECT_EQ(rec.find("provenance broken")->status, "exit code 3");
  EXPECT_EQ(rec.find("provenance broken")->text, "no module named torch");
  EXPECT_EQ(rec.find("provenance hangs")->status, "timed out after 0.3 s");
  EXPECT_EQ(rec.find("provenance here")->text, "in the workdir");
}

TEST(CaptureEnvironment, TheCaseFileTextAndWhetherItChangedSinceItWasLoaded) {
  TempDir d;
  CaptureOptions o = options_with_bin(d);
  const std::string text = "case: c\ncommand: echo hi\n";
  write(d / "c.yaml", text);
  o.case_file = d / "c.yaml";
  o.case_digest = sha256_hex(text);
  EXPECT_EQ(capture_environment(o).find("case file")->text, text);
  EXPECT_EQ(capture_environment(o).find("case file")->status, "");
  write(d / "c.yaml", text + "# edited\n");
  EXPECT_EQ(capture_environment(o).find("case file")->status, "changed since aerun loaded it");
}

TEST(CaptureEnvironment, GitCommitStatusAndTheUncommittedDiffCutAtTheLimit) {
  if (system("git --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no git";
  TempDir d;
  CaptureOptions o = options_with_bin(d);
  o.env.push_back({"GIT_AUTHOR_NAME", "t"});
  o.env.push_back({"GIT_AUTHOR_EMAIL", "t@x"});
  o.env.push_back({"GIT_COMMITTER_NAME", "t"});
  o.env.push_back({"GIT_COMMITTER_EMAIL", "t@x"});
  o.workdir = d / "repo";  // the fake PATH's bin/ stays outside the repository
  write(d / "repo/train.py", "lr = 0.1\n");
  ASSERT_EQ(system(("cd " + o.workdir +
                    " && git init -q && git add train.py && git -c commit.gpgsign=false -c "
                    "user.name=t -c user.email=t@x commit -q -m one 2>/dev/null")
                       .c_str()),
            0);
  EnvRecord rec = capture_environment(o);
  ASSERT_NE(rec.find("git"), nullptr);
  EXPECT_THAT(rec.find("git")->text, HasSubstr("status: clean"));
  EXPECT_EQ(rec.find("git diff"), nullptr);  // nothing uncommitted
  write(d / "repo/train.py", "lr = 0.2\n" + std::string(5000, '#') + "\n");
  o.max_item_bytes = 1000;
  rec = capture_environment(o);
  EXPECT_THAT(rec.find("git")->text, HasSubstr(" M train.py"));
  EXPECT_THAT(rec.find("git")->text, HasSubstr("diff against it: "));
  const std::string& diff = rec.find("git diff")->text;
  EXPECT_THAT(diff, HasSubstr("+lr = 0.2"));
  EXPECT_THAT(diff, HasSubstr("[... cut at 1000 of "));
  EXPECT_LT(diff.size(), 1100u);
}

}  // namespace
}  // namespace aerun
