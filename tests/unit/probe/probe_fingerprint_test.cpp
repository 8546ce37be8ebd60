// A kept tool probe is reused only while what it reads is unchanged: the fingerprint follows the
// tool's file, a Python's package folders and the environment, and ignores what every login or
// job changes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "aerun/probe/probe_cache.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;

struct Sandbox {
  fs::path dir;
  EnvVars env;
  Sandbox() {
    std::string t = (fs::temp_directory_path() / "aerun-fp-XXXXXX").string();
    dir = ::mkdtemp(t.data());
    fs::create_directories(dir / "venv/bin");
    fs::create_directories(dir / "venv/lib/python3.11/site-packages");
    tool("venv/bin/python", "#!/bin/sh\necho Python 3.11.9\n");
    tool("bin/cc", "#!/bin/sh\necho cc 12\n");
    env = {{"PATH", (dir / "venv/bin").string() + ":" + (dir / "bin").string()},
           {"HOME", dir.string()}};
  }
  ~Sandbox() { fs::remove_all(dir); }
  void tool(const std::string& rel, const std::string& text) {
    fs::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel) << text;
    fs::permissions(dir / rel, fs::perms::owner_all);
  }
  std::string of(const ToolProbe& p) { return ProbeFingerprints(env, dir.string()).of(p); }
};

const ToolProbe kFreeze{"pip freeze", {"python", "-m", "pip", "freeze"}};
const ToolProbe kCc{"cc --version", {"cc", "--version"}};

TEST(ProbeFingerprint, IsTheSameWhileNothingItReadsChanged) {
  Sandbox s;
  const std::string freeze = s.of(kFreeze);
  EXPECT_EQ(freeze.size(), 64u);
  EXPECT_EQ(s.of(kFreeze), freeze);
  EXPECT_NE(s.of(kCc), freeze);
  EXPECT_NE(s.of({"python --version", {"python", "--version"}}), freeze);
}

TEST(ProbeFingerprint, AnInstalledPackageChangesPythonsButNotTheCompilers) {
  Sandbox s;
  const std::string freeze = s.of(kFreeze);
  const std::string cc = s.of(kCc);
  ::usleep(20000);  // folder times move in the file system's clock ticks
  fs::create_directories(s.dir / "venv/lib/python3.11/site-packages/numpy-2.0.0.dist-info");
  EXPECT_NE(s.of(kFreeze), freeze);
  EXPECT_EQ(s.of(kCc), cc);
}

TEST(ProbeFingerprint, AToolRewrittenOrFoundElsewhereIsAnotherTool) {
  Sandbox s;
  const std::string cc = s.of(kCc);
  s.tool("bin/cc", "#!/bin/sh\necho cc 13\n");
  const std::string rewritten = s.of(kCc);
  EXPECT_NE(rewritten, cc);
  s.tool("venv/bin/cc", "#!/bin/sh\necho cc 13\n");  // earlier in PATH
  EXPECT_NE(s.of(kCc), rewritten);
}

TEST(ProbeFingerprint, FollowsTheEnvironmentButNotWhatEachLoginOrJobChanges) {
  Sandbox s;
  const std::string cc = s.of(kCc);
  for (const char* name : {"SLURM_JOB_ID", "PBS_JOBID", "PWD", "SHLVL", "SSH_CONNECTION",
                           "MASTER_PORT", "AERUN_DB", "TERM"}) {
    EXPECT_FALSE(fingerprinted_variable(name)) << name;
    const EnvVars before = s.env;
    set_var(s.env, name, "42");
    EXPECT_EQ(s.of(kCc), cc) << name;
    s.env = before;
  }
  for (const char* name : {"LD_LIBRARY_PATH", "CUDA_HOME", "PYTHONPATH", "VIRTUAL_ENV"}) {
    EXPECT_TRUE(fingerprinted_variable(name)) << name;
    const EnvVars before = s.env;
    set_var(s.env, name, "/opt/x");
    EXPECT_NE(s.of(kCc), cc) << name;
    s.env = before;
  }
}

TEST(ProbeFingerprint, AToolNotInPathOrAPyenvShimIsNeverKept) {
  Sandbox s;
  EXPECT_EQ(s.of({"nvidia-smi", {"nvidia-smi"}}), "");
  s.tool("shims/python", "#!/bin/sh\nexec pyenv exec python \"$@\"\n");
  s.env = {{"PATH", (s.dir / "shims").string()}, {"HOME", s.dir.string()}};
  EXPECT_EQ(s.of(kFreeze), "");
}

}  // namespace
}  // namespace aerun
