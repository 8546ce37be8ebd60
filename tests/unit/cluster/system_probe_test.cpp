// Running probing tools for real: found in PATH, output captured, failures and hangs bounded.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "aerun/cluster/gpu_discovery.hpp"
#include "aerun/cluster/system_probe.hpp"

namespace aerun {
namespace {

namespace fs = std::filesystem;

// A temp dir of executable scripts put first in PATH for the test's lifetime.
class ToolDir {
 public:
  ToolDir() : dir_(fs::temp_directory_path() / ("aerun-tools-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
    old_path_ = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", (dir_.string() + ":" + old_path_).c_str(), 1);
  }
  ~ToolDir() {
    ::setenv("PATH", old_path_.c_str(), 1);
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void add(const std::string& name, const std::string& script) {
    const auto p = dir_ / name;
    std::ofstream(p) << "#!/bin/sh\n" << script << "\n";
    ::chmod(p.c_str(), 0755);
  }

 private:
  fs::path dir_;
  std::string old_path_;
};

TEST(RunTool, ReturnsTheOutputOfAToolThatSucceeds) {
  EXPECT_EQ(run_tool({"printf", "a\\nb"}), "a\nb");
}

TEST(RunTool, AMissingOrFailingToolIsNothing) {
  EXPECT_EQ(run_tool({"aerun-no-such-tool-xyz"}), std::nullopt);
  EXPECT_EQ(run_tool({"sh", "-c", "echo partial; exit 3"}), std::nullopt);
}

TEST(RunTool, AHangingToolIsKilledAtItsTimeLimit) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(run_tool({"sh", "-c", "sleep 30 & sleep 30"}, 0.3), std::nullopt);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(RunTool, DiscoveryRunsARealNvidiaSmiFromPath) {
  ToolDir tools;
  tools.add("nvidia-smi",
            "[ \"$1\" = -L ] || exit 9\n"
            "echo 'GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-0)'\n"
            "echo 'GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-1)'");
  const GpuCount g = discover_gpus(
      std::nullopt, [](const std::string&) { return std::nullopt; }, system_tools());
  EXPECT_EQ(g.per_host, 2);
  EXPECT_EQ(g.source, "nvidia-smi");
}

TEST(RunTool, ABrokenNvidiaSmiFallsThroughToTheEnvironment) {
  ToolDir tools;
  tools.add("nvidia-smi", "echo 'NVIDIA-SMI has failed' ; exit 9");
  const GpuCount g = discover_gpus(
      std::nullopt,
      [](const std::string& n) -> std::optional<std::string> {
        if (n == "CUDA_VISIBLE_DEVICES") return "0,1,2";
        return std::nullopt;
      },
      system_tools());
  EXPECT_EQ(g.per_host, 3);
  EXPECT_EQ(g.source, "CUDA_VISIBLE_DEVICES");
}

}  // namespace
}  // namespace aerun
