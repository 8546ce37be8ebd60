// The stamps a job leaves, and the output stamper that records first output and first step.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "aerun/sched/job_stamps.hpp"

using namespace aerun;

TEST(JobStamps, ReadsStartHostJobFirstStepAndEnd) {
  const std::string p = std::filesystem::temp_directory_path() / ("st-" + std::to_string(getpid()));
  std::ofstream(p) << "start 100.5 nid001 42_1\nfirst_output 101\nfirst_step 103.25\nend 110 7\n";
  const JobStamps s = read_job_stamps(p);
  EXPECT_EQ(s.start, 100.5);
  EXPECT_EQ(s.host, "nid001");
  EXPECT_EQ(s.job_id, "42_1");
  EXPECT_EQ(s.first_output, 101);
  EXPECT_EQ(s.first_step, 103.25);
  EXPECT_EQ(s.end, 110);
  EXPECT_EQ(s.exit_code, 7);
  std::filesystem::remove(p);
  EXPECT_FALSE(read_job_stamps(p).start);
  EXPECT_EQ(stamps_path("/x/a-b_3.log"), "/x/a-b_3.stamps");
}

TEST(StampOutput, ALinkPutAtTheStampsPathIsReplacedNotAppendedThrough) {
  // Issue 40: the stamps file was opened by std::ofstream in append mode, following a link.
  const std::string dir =
      std::filesystem::temp_directory_path() / ("so-link-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  { std::ofstream(dir + "/victim") << "the user's own file\n"; }
  std::filesystem::create_symlink(dir + "/victim", dir + "/s");
  int in[2];
  ASSERT_EQ(pipe(in), 0);
  ASSERT_EQ(write(in[1], "x\n", 2), 2);
  close(in[1]);
  const int devnull = ::open("/dev/null", O_WRONLY);
  ASSERT_TRUE(stamp_output(in[0], devnull, dir + "/s", ""));
  close(devnull);
  close(in[0]);
  std::ifstream victim(dir + "/victim");
  std::string line;
  std::getline(victim, line);
  EXPECT_EQ(line, "the user's own file");
  EXPECT_FALSE(std::filesystem::is_symlink(dir + "/s"));
  EXPECT_TRUE(read_job_stamps(dir + "/s").first_output.has_value());
  std::filesystem::remove_all(dir);
}

TEST(StampOutput, CopiesEverythingAndStampsTheFirstMatchingLineOnce) {
  const std::string dir =
      std::filesystem::temp_directory_path() / ("so-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  int in[2], out[2];
  ASSERT_EQ(pipe(in), 0);
  ASSERT_EQ(pipe(out), 0);
  std::thread writer([&] {
    const std::string text = "loading\n iteration 1/10 | loss 3\n iteration 2/10\n";
    ASSERT_EQ(write(in[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
    close(in[1]);
  });
  ASSERT_TRUE(stamp_output(in[0], out[1], dir + "/s", R"(iteration\s+\d+/)"));
  writer.join();
  close(out[1]);
  char buf[256];
  const ssize_t n = read(out[0], buf, sizeof buf);
  EXPECT_EQ(std::string(buf, static_cast<size_t>(n)),
            "loading\n iteration 1/10 | loss 3\n iteration 2/10\n");
  const JobStamps s = read_job_stamps(dir + "/s");
  ASSERT_TRUE(s.first_output && s.first_step);
  EXPECT_LE(*s.first_output, *s.first_step);
  close(in[0]);
  close(out[0]);
  std::filesystem::remove_all(dir);
}
