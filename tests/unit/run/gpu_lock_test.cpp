#include "run/gpu_lock.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

TEST(GpuLock, ASecondHolderWaitsAndIsToldWhoHoldsTheLock) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("aerun-gpu-test-" + std::to_string(getpid())))
          .string();
  aerun::GpuLock first;
  ASSERT_TRUE(first.acquire(path, "pid 1, case first", nullptr));
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  const pid_t child = fork();
  if (child == 0) {
    aerun::GpuLock second;
    std::string told;
    second.acquire(path, "pid 2, case second", [&](const std::string& h) { told = h; });
    [[maybe_unused]] ssize_t w = write(pipefd[1], told.data(), told.size());
    _exit(0);
  }
  close(pipefd[1]);
  usleep(200000);
  int status = 0;
  EXPECT_EQ(waitpid(child, &status, WNOHANG), 0) << "the second holder did not wait";
  first.release();
  waitpid(child, &status, 0);
  char buf[256] = {};
  ASSERT_GT(read(pipefd[0], buf, sizeof buf - 1), 0);
  close(pipefd[0]);
  EXPECT_THAT(std::string(buf), ::testing::HasSubstr("case first"));
  std::filesystem::remove(path);
}
