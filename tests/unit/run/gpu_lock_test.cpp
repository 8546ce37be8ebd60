#include "run/gpu_lock.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "aerun/util/error.hpp"

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

TEST(GpuLock, ALinkAtTheLocksPathIsNeverFollowed) {
  // Issue 40: the lock was opened with O_CREAT, truncated and made mode 666 through a link put at
  // its path, emptying whatever file it named.
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("aerun-gpu-link-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path victim = dir / "victim.txt";
  { std::ofstream(victim) << "the user's own file\n"; }
  fs::create_symlink(victim, dir / "aerun-gpu.lock");
  aerun::GpuLock lock;
  EXPECT_THROW(lock.acquire((dir / "aerun-gpu.lock").string(), "pid 1", nullptr),
               aerun::SystemError);
  EXPECT_EQ(fs::file_size(victim), std::string("the user's own file\n").size());
  EXPECT_EQ(fs::status(victim).permissions() & fs::perms::others_write, fs::perms::none);
  fs::remove_all(dir);
}

TEST(GpuLock, AHardLinkAtTheLocksPathIsRefusedNeverEmptied) {
  // The second adversarial pass: a hard link put at the lock's path (only symbolic links were
  // checked) had its file emptied, the lock being truncated to write its holder.
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("aerun-gpu-hard-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path victim = dir / "victim.txt";
  { std::ofstream(victim) << "the user's own file\n"; }
  fs::create_hard_link(victim, dir / "aerun-gpu.lock");
  aerun::GpuLock lock;
  EXPECT_THROW(lock.acquire((dir / "aerun-gpu.lock").string(), "pid 1", nullptr),
               aerun::SystemError);
  std::ifstream in(victim);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "the user's own file\n");
  fs::remove_all(dir);
}

TEST(GpuLock, ItsDefaultFolderIsTheUsersNotTheSharedTmp) {
  unsetenv("AERUN_LOCK_DIR");
  unsetenv("XDG_RUNTIME_DIR");
  const std::string path = aerun::GpuLock::default_path();
  EXPECT_EQ(path, "/tmp/aerun-" + std::to_string(getuid()) + "/aerun-gpu.lock");
  struct stat st {};
  ASSERT_EQ(lstat(("/tmp/aerun-" + std::to_string(getuid())).c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 077, 0u);
}
