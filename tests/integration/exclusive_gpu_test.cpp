// `exclusive: gpu`: runs of two cases (or two users) never overlap on one host.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness.hpp"

using namespace aerun::testing;
using ::testing::HasSubstr;

TEST(ExclusiveGpu, TwoCasesTakeTurnsAndTheWaitingOneSaysWhatItWaitsFor) {
  TempDir d;
  const std::string lockdir = d / "locks";
  fs::create_directories(lockdir);
  for (const char* name : {"a", "b"})
    write_file(d / (std::string(name) + ".yaml"), std::string("case: ") + name +
                                                      "\nparams: {i: [1, 2]}\nexclusive: gpu\n"
                                                      "command: sleep 1.5\n");
  const std::string env = "AERUN_LOCK_DIR=" + aerun::shell_quote(lockdir);
  // Both start together (the shell runs them in parallel), each with its own store; runs of 1.5 s
  // keep the first one's turn long enough that the second, started late on a loaded machine,
  // still finds the lock held.
  const std::string cmd =
      "cd " + aerun::shell_quote(d.path().string()) + " && export " + env + " && (" +
      aerun::shell_quote(AERUN_BINARY) + " case a.yaml -j 2 --db a.db 2> a.err & " +
      aerun::shell_quote(AERUN_BINARY) + " case b.yaml -j 2 --db b.db 2> b.err; wait)";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::vector<std::pair<double, double>> spans;
  for (const char* db : {"a.db", "b.db"})
    for (const auto& row : sql(d / db, "SELECT launch_time, end_time FROM runs WHERE status='ok'"))
      spans.emplace_back(std::stod(row[0]), std::stod(row[1]));
  ASSERT_EQ(spans.size(), 4u);
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) EXPECT_LE(spans[i - 1].second, spans[i].first + 0.01);
  const std::string errs = read_file(d / "a.err") + read_file(d / "b.err");
  EXPECT_THAT(errs, HasSubstr("waiting for the GPU lock"));
  EXPECT_THAT(errs, HasSubstr("held by pid"));
}
