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

TEST(ProbeFingerprint, AToolNotInPathOrTheShimOfAnUnknownManagerIsNeverKept) {
  Sandbox s;
  EXPECT_EQ(s.of({"nvidia-smi", {"nvidia-smi"}}), "");
  s.tool("shims/python", "#!/bin/sh\nexec some-manager exec python \"$@\"\n");
  s.env = {{"PATH", (s.dir / "shims").string()}, {"HOME", s.dir.string()}};
  EXPECT_EQ(s.of(kFreeze), "");
}

// A pyenv installation as pyenv lays it out (libexec/pyenv-rehash writes the shims,
// pyenv-version-file and pyenv-version-name choose the version): the runs' workdir two folders
// below the sandbox.
struct PyenvSandbox : Sandbox {
  fs::path root = dir / ".pyenv";
  fs::path work = dir / "project/sub";
  PyenvSandbox() {
    tool(".pyenv/shims/python",
         "#!/usr/bin/env bash\nset -e\nprogram=\"${0##*/}\"\n"
         "export PYENV_ROOT=\"" +
             root.string() +
             "\"\n"
             "exec \"" +
             root.string() + "/libexec/pyenv\" exec \"$program\" \"$@\"\n");
    fs::create_directories(root / "versions/3.11.7/lib/python3.11/site-packages");
    fs::create_directories(root / "versions/3.12.1/lib/python3.12/site-packages");
    std::ofstream(root / "version") << "3.11.7\n";
    fs::create_directories(work);
    env = {{"PATH", (root / "shims").string() + ":/usr/bin"}, {"HOME", dir.string()}};
  }
  std::string of(const ToolProbe& p) { return ProbeFingerprints(env, work.string()).of(p); }
};

TEST(ProbeFingerprint, APyenvShimIsKeptWhileItsVersionFilesAndVersionsAreUnchanged) {
  PyenvSandbox s;
  const std::string freeze = s.of(kFreeze);
  EXPECT_EQ(freeze.size(), 64u);
  EXPECT_EQ(s.of(kFreeze), freeze);
}

TEST(ProbeFingerprint, APyenvShimFollowsEveryFileThatChoosesItsVersion) {
  PyenvSandbox s;
  const std::string global = s.of(kFreeze);
  std::ofstream(s.root / "version") << "3.12.1\n";  // `pyenv global 3.12.1`
  const std::string global2 = s.of(kFreeze);
  EXPECT_NE(global2, global);
  std::ofstream(s.dir / "project/.python-version")
      << "3.11.7\n";  // `pyenv local` above the workdir
  const std::string local = s.of(kFreeze);
  EXPECT_NE(local, global2);
  std::ofstream(s.work / ".python-version") << "3.12.1\n";  // and in it
  const std::string here = s.of(kFreeze);
  EXPECT_NE(here, local);
  set_var(s.env, "PYENV_VERSION", "system");  // `pyenv shell system`
  EXPECT_NE(s.of(kFreeze), here);
}

TEST(ProbeFingerprint, APyenvShimFollowsThePackagesAndVersionsInstalled) {
  PyenvSandbox s;
  const std::string before = s.of(kFreeze);
  ::usleep(20000);  // folder times move in the file system's clock ticks
  fs::create_directories(s.root / "versions/3.11.7/lib/python3.11/site-packages/torch");
  const std::string installed = s.of(kFreeze);
  EXPECT_NE(installed, before);
  ::usleep(20000);
  fs::create_directories(s.root / "versions/3.13.0/lib/python3.13/site-packages");
  EXPECT_NE(s.of(kFreeze), installed);
}

TEST(ProbeFingerprint, AnAsdfShimFollowsToolVersionsUpFromTheWorkdirAndInHome) {
  Sandbox s;
  const fs::path root = s.dir / ".asdf";
  s.tool(".asdf/shims/python", "#!/usr/bin/env bash\nexec asdf exec \"python\" \"$@\"\n");
  fs::create_directories(root / "installs/python/3.11.7/lib/python3.11/site-packages");
  fs::create_directories(s.dir / "work");
  s.env = {{"PATH", (root / "shims").string()}, {"HOME", s.dir.string()}};
  const auto of = [&] { return ProbeFingerprints(s.env, (s.dir / "work").string()).of(kFreeze); };
  const std::string before = of();
  EXPECT_EQ(before.size(), 64u);
  std::ofstream(s.dir / ".tool-versions") << "python 3.11.7\n";  // $HOME's, also above the workdir
  const std::string home = of();
  EXPECT_NE(home, before);
  std::ofstream(s.dir / "work/.tool-versions") << "python 3.12.1\n";
  EXPECT_NE(of(), home);
}

}  // namespace
}  // namespace aerun
