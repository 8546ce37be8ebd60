// A run's own directory (case `rundir:`): its path, made ready before an attempt (earlier logs
// kept, inputs copied and linked), cleaned after it as `keep` says, never a folder aerun did not
// make.
#include "aerun/run/run_directory.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/error.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class RunDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "aerun-rundir-XXXXXX").string();
    root_ = mkdtemp(t.data());
    fs::create_directories(root_ / "work/data");
    std::ofstream(root_ / "work/config.json") << "{\"lr\": 0.1}\n";
    std::ofstream(root_ / "work/data/shard0") << "tokens\n";
  }
  void TearDown() override { fs::remove_all(root_); }
  CaseSpec load(const std::string& rundir) {
    return parse_case(
        "case: c\nparams: {m: [a, 'x/y'], n: [1, 2]}\n" + rundir + "command: echo {m} {n}\n",
        (root_ / "work/c.yaml").string(), (root_ / "work").string());
  }
  fs::path root_;
};

TEST_F(RunDirectory, ByDefaultUnderTheStoresFolderNamedByCaseAndKey) {
  const CaseSpec spec = load("rundir: {}\n");
  const ParamList params = {{"m", Value::of_string("a")}, {"n", Value::parse("1")}};
  EXPECT_EQ(run_directory(spec, params, std::string(64, 'f'), 0, (root_ / "results").string()),
            (root_ / "results/runs/c/ffffffffffffffff").string());
}

TEST_F(RunDirectory, AWrittenPathIsFilledAndTakenFromTheWorkdirValuesStayOneComponent) {
  const CaseSpec spec = load("rundir: 'scratch/{case}/{m}-{n}-r{repeat}'\n");
  const ParamList params = {{"m", Value::of_string("x/y")}, {"n", Value::parse("2")}};
  EXPECT_EQ(run_directory(spec, params, "k", 3, "/ignored"),
            (root_ / "work/scratch/c/x%2Fy-2-r3").string());
  const CaseSpec dots = load("rundir: '/tmp/{m}/{key}'\n");
  EXPECT_EQ(run_directory(dots, {{"m", Value::of_string("..")}, {"n", Value::parse("1")}},
                          "0123456789abcdef0123", 0, ""),
            "/tmp/%2E%2E/0123456789abcdef");
}

TEST_F(RunDirectory, APathMustTellEveryTwoRunsApart) {
  EXPECT_NO_THROW(load("rundir: 'runs/{m}/{n}'\n"));
  EXPECT_NO_THROW(load("rundir: 'runs/{key}'\n"));
  try {
    load("rundir: 'runs/{m}'\n");
    FAIL() << "a path without {n} was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("c.yaml:3"));
    EXPECT_THAT(e.what(),
                HasSubstr("has no {n}: runs that differ in it would share one directory"));
  }
  EXPECT_THROW(load("rundir: 'runs/{nope}/{key}'\n"), InputError);
  EXPECT_THROW(load("rundir: {keep: sometimes}\n"), InputError);
  EXPECT_THROW(load("rundir: {copy: ['..']}\n"), InputError);
  EXPECT_FALSE(load("rundir: none\n").rundir);
}

TEST_F(RunDirectory, RundirInTheCommandNeedsARundir) {
  try {
    parse_case("case: c\ncommand: cd {rundir}\n", "c.yaml", root_.string());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("placeholder '{rundir}' needs a run directory"));
  }
  EXPECT_NO_THROW(
      parse_case("case: c\nrundir: {}\ncommand: cd {rundir}\n", "c.yaml", root_.string()));
}

TEST_F(RunDirectory, PreparedWithItsInputsAndEmptiedForANewAttemptButItsLogs) {
  const CaseSpec spec = load("rundir: {copy: [config.json], link: [data]}\n");
  const fs::path dir = root_ / "runs/c/k1";
  prepare_run_directory(spec, dir.string());
  EXPECT_TRUE(fs::is_regular_file(dir / "config.json"));
  EXPECT_TRUE(fs::is_symlink(dir / "data"));
  EXPECT_EQ(fs::read_symlink(dir / "data"), root_ / "work/data");
  // The first attempt writes its log and outputs, changes its copy of the input.
  std::ofstream(run_directory_log(dir.string(), 1)) << "attempt 1\n";
  std::ofstream(dir / "checkpoint.pt") << "weights\n";
  std::ofstream(dir / "config.json") << "changed by the run\n";
  prepare_run_directory(spec, dir.string());  // attempt 2
  EXPECT_TRUE(fs::exists(dir / "run-a1.log"));
  EXPECT_FALSE(fs::exists(dir / "checkpoint.pt"));
  std::ifstream in(dir / "config.json");
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "{\"lr\": 0.1}");                    // a fresh copy
  EXPECT_TRUE(fs::exists(root_ / "work/data/shard0"));  // the link went, not what it points to
}

TEST_F(RunDirectory, NeverAFolderHoldingTheWorkdirNorOneAerunDidNotMake) {
  const CaseSpec spec = load("rundir: {}\n");
  EXPECT_THROW(prepare_run_directory(spec, (root_ / "work").string()), SystemError);
  EXPECT_THROW(prepare_run_directory(spec, root_.string()), SystemError);
  fs::create_directories(root_ / "mine");
  std::ofstream(root_ / "mine/precious.txt") << "keep me\n";
  try {
    prepare_run_directory(spec, (root_ / "mine").string());
    FAIL();
  } catch (const SystemError& e) {
    EXPECT_THAT(e.what(), HasSubstr("was not made by aerun: not touched"));
  }
  EXPECT_TRUE(fs::exists(root_ / "mine/precious.txt"));
  EXPECT_FALSE(clean_run_directory(RundirSpec{"", {}, {}, RundirSpec::Keep::None, {}},
                                   (root_ / "mine").string(), "ok"));
  EXPECT_TRUE(fs::exists(root_ / "mine/precious.txt"));
  // A missing input fails the preparation, naming it.
  const CaseSpec missing = load("rundir: {copy: [nope.bin]}\n");
  try {
    prepare_run_directory(missing, (root_ / "runs/x").string());
    FAIL();
  } catch (const SystemError& e) {
    EXPECT_THAT(e.what(), HasSubstr("nope.bin"));
  }
}

TEST_F(RunDirectory, KeepSaysWhatStaysAfterTheRunLogsAlways) {
  const auto run_dir = [&](const std::string& name) {
    const fs::path d = root_ / "runs" / name;
    prepare_run_directory(load("rundir: {}\n"), d.string());
    std::ofstream(run_directory_log(d.string(), 1)) << "log\n";
    std::ofstream(d / "out.bin") << "output\n";
    return d;
  };
  const RundirSpec all{"", {}, {}, RundirSpec::Keep::All, {}};
  const RundirSpec failed{"", {}, {}, RundirSpec::Keep::Failed, {}};
  const RundirSpec none{"", {}, {}, RundirSpec::Keep::None, {}};
  fs::path d = run_dir("a");
  EXPECT_FALSE(clean_run_directory(all, d.string(), "ok"));
  EXPECT_TRUE(fs::exists(d / "out.bin"));
  d = run_dir("b");
  EXPECT_FALSE(clean_run_directory(failed, d.string(), "oom"));
  EXPECT_TRUE(fs::exists(d / "out.bin"));
  EXPECT_TRUE(clean_run_directory(failed, d.string(), "ok"));
  EXPECT_FALSE(fs::exists(d / "out.bin"));
  EXPECT_TRUE(fs::exists(d / "run-a1.log"));
  d = run_dir("c");
  EXPECT_TRUE(clean_run_directory(none, d.string(), "failed"));
  EXPECT_FALSE(fs::exists(d / "out.bin"));
  EXPECT_TRUE(fs::exists(d / "run-a1.log"));
}

}  // namespace
}  // namespace aerun
