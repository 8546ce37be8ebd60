// A real single-host Slurm cluster (scripts/slurm-test-cluster.sh: slurmctld, slurmd "nodes" n1
// and n2 with 2 CPUs and 4 fake GPUs each, a private munged) for the tests of one test suite:
// started once before its first test, stopped after its last, and stopped also when the test
// process dies any other way (a watchdog in the script follows this process's pid; atexit and
// fatal-signal handlers stop it sooner).
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <string>

#include "harness.hpp"

namespace aerun::testing {

class SlurmCluster {
 public:
  static std::string script() {
    return std::string(AERUN_SOURCE_DIR) + "/scripts/slurm-test-cluster.sh";
  }

  // Starts the cluster; false (with the script's output in *why) when it cannot.
  static bool start(std::string* why) {
    dir_ = new TempDir();
    const std::string log = *dir_ / "start.log";
    const std::string cmd = "bash " + shell_quote(script()) + " start " +
                            shell_quote(*dir_ / "cluster") + " " + std::to_string(getpid()) + " >" +
                            shell_quote(log) + " 2>&1";
    const int rc = std::system(cmd.c_str());
    if (rc != 0) {
      *why = read_file(log);
      stop();
      return false;
    }
    std::atexit(stop);
    for (int sig : {SIGABRT, SIGSEGV, SIGTERM, SIGINT, SIGBUS}) std::signal(sig, on_fatal);
    return true;
  }

  static void stop() {
    if (!dir_) return;
    const std::string cmd = "bash " + shell_quote(script()) + " stop " +
                            shell_quote(*dir_ / "cluster") + " >/dev/null 2>&1";
    [[maybe_unused]] const int rc = std::system(cmd.c_str());
    delete dir_;
    dir_ = nullptr;
  }

  // The control daemon alone, for the "controller unreachable" fault.
  static void stop_controller() { ctl("stop-ctld"); }
  static void start_controller() { ctl("start-ctld"); }

  // The cluster's slurm.conf (SLURM_CONF).
  static std::string conf() { return *dir_ / "cluster/slurm.conf"; }
  // "SLURM_CONF=..." for run_aerun.
  static std::string env() { return "SLURM_CONF=" + shell_quote(*dir_ / "cluster/slurm.conf"); }
  static bool running() { return dir_ != nullptr; }

 private:
  static void ctl(const char* what) {
    const std::string cmd = "bash " + shell_quote(script()) + " " + what + " " +
                            shell_quote(*dir_ / "cluster") + " >/dev/null 2>&1";
    [[maybe_unused]] const int rc = std::system(cmd.c_str());
  }
  static void on_fatal(int sig) {
    stop();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
  static inline TempDir* dir_ = nullptr;
};

// A test suite with a live Slurm cluster; skips (with the reason) where Slurm is not installed.
class SlurmTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (std::system("command -v slurmctld >/dev/null 2>&1 && command -v munged >/dev/null 2>&1") !=
        0) {
      skip_ = "slurmctld/munged not installed (scripts/install-deps.sh --test installs them)";
      return;
    }
    std::string why;
    if (!SlurmCluster::start(&why)) broken_ = "the Slurm test cluster did not start:\n" + why;
  }
  static void TearDownTestSuite() { SlurmCluster::stop(); }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    if (!broken_.empty()) GTEST_FAIL() << broken_;
  }

  Result aerun(const std::vector<std::string>& args, const std::string& env = "") {
    return run_aerun(dir_, args, SlurmCluster::env() + " " + env);
  }
  std::string db() const { return dir_ / "results/aerun.db"; }

  TempDir dir_;
  static inline std::string skip_;
  static inline std::string broken_;
};

}  // namespace aerun::testing
