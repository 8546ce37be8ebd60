// Slurm host lists expand exactly as `scontrol show hostnames` expands them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "aerun/cluster/system_probe.hpp"
#include "aerun/util/error.hpp"
#include "cluster/slurm_hostlist.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using Hosts = std::vector<std::string>;

std::string error_of(const std::string& list) {
  try {
    expand_hostlist(list);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for " << list;
  return "";
}

TEST(Hostlist, PlainNamesAreKeptInOrder) {
  EXPECT_THAT(expand_hostlist("nid001"), ElementsAre("nid001"));
  EXPECT_THAT(expand_hostlist("b,a,c"), ElementsAre("b", "a", "c"));
}

TEST(Hostlist, ARangeKeepsTheZeroPaddingOfItsLowEnd) {
  EXPECT_THAT(expand_hostlist("nid[008-011]"), ElementsAre("nid008", "nid009", "nid010", "nid011"));
  EXPECT_THAT(expand_hostlist("x[9-011]"), ElementsAre("x9", "x10", "x11"));
  EXPECT_THAT(expand_hostlist("x[01-3]"), ElementsAre("x01", "x02", "x03"));
}

TEST(Hostlist, SeveralRangesAndSinglesInOneBracketKeepTheirWrittenOrder) {
  EXPECT_THAT(expand_hostlist("n[1-2,5,3]"), ElementsAre("n1", "n2", "n5", "n3"));
}

TEST(Hostlist, SeveralBracketGroupsFollowSlurmsOrder) {
  EXPECT_THAT(expand_hostlist("a[1-2]b[3,5]"), ElementsAre("a1b3", "a1b5", "a2b3", "a2b5"));
  // Three groups: the last fastest, then the first, the middle slowest (as scontrol does).
  EXPECT_THAT(
      expand_hostlist("a[1-2]b[1-2]c[1-2]"),
      ElementsAre("a1b1c1", "a1b1c2", "a2b1c1", "a2b1c2", "a1b2c1", "a1b2c2", "a2b2c1", "a2b2c2"));
}

TEST(Hostlist, ListsMixBracketsAndPlainNamesWithCommasOrSpaces) {
  EXPECT_THAT(expand_hostlist("login1,gpu[1-2] cpu07,,x[1-2]-[3]"),
              ElementsAre("login1", "gpu1", "gpu2", "cpu07", "x1-3", "x2-3"));
}

TEST(Hostlist, DuplicatesAreKeptAsScontrolKeepsThem) {
  EXPECT_THAT(expand_hostlist("x[1-2],x1"), ElementsAre("x1", "x2", "x1"));
}

TEST(Hostlist, WhatSlurmRejectsIsAnErrorWithItsPosition) {
  EXPECT_THAT(error_of("x[3-1]"), HasSubstr("position 3: range 3-1 goes down"));
  EXPECT_THAT(error_of("x[]"), HasSubstr("position 3: empty brackets"));
  EXPECT_THAT(error_of("x[a-b]"), HasSubstr("position 3: 'a' is not a digit"));
  EXPECT_THAT(error_of("x[1,,2]"), HasSubstr("position 5: expected a number"));
  EXPECT_THAT(error_of("c[1-2]y"), HasSubstr("position 7: text after the last ']'"));
  EXPECT_THAT(error_of("x[1-65537]"), HasSubstr("more than 65536 hosts in one range"));
  EXPECT_THAT(error_of("ok,x[1-3"), HasSubstr("position 5: '[' is not closed"));
  EXPECT_THAT(error_of("x]"), HasSubstr("position 2: ']' without '['"));
}

// Found by fuzz_hostlist: two 2,045-number ranges (4.18 M names, under the 4 Mi name limit) of
// long names took over 10 s and 1.2 GB under ASan; names x length is bounded too, before
// expanding.
TEST(Hostlist, LongNamesTimesManyHostsAreBoundedBeforeExpanding) {
  const std::string prefix(1000, 'n');
  EXPECT_THAT(error_of(prefix + "[1-600][1-600]"),
              HasSubstr("position 1: the names add up to more than 256 MiB (aerun's limit)"));
  EXPECT_THAT(error_of("a[1-65536]b[1-65536]"), HasSubstr("more than 4194304 hosts in the list"));
  EXPECT_THAT(expand_hostlist("x[1-3]", 3), ElementsAre("x1", "x2", "x3"));
  EXPECT_THROW(expand_hostlist("x[1-3],y", 3), InputError);
}

TEST(TasksPerNode, RepeatCountsExpand) {
  EXPECT_THAT(expand_tasks_per_node("2(x3),1"), ElementsAre(2, 2, 2, 1));
  EXPECT_THAT(expand_tasks_per_node("4"), ElementsAre(4));
  EXPECT_THAT(expand_tasks_per_node("1,3(x2)"), ElementsAre(1, 3, 3));
}

TEST(TasksPerNode, BadTextNamesItsPosition) {
  EXPECT_THROW(expand_tasks_per_node("2(3)"), InputError);
  try {
    expand_tasks_per_node("2(x3,1");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("position 5: expected ')'"));
  }
}

// The real `scontrol show hostnames` agrees on every list (it needs a slurm.conf, not a
// controller).
TEST(Hostlist, MatchesTheRealScontrol) {
  if (!run_tool({"sh", "-c", "command -v scontrol"}))
    GTEST_SKIP() << "scontrol is not installed (Debian: slurm-client)";
  const auto dir =
      std::filesystem::temp_directory_path() / ("aerun-scontrol-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string conf = (dir / "slurm.conf").string();
  std::ofstream(conf) << "ClusterName=t\nSlurmctldHost=localhost\nNodeName=localhost\n"
                         "PartitionName=p Nodes=localhost\n";
  const std::vector<std::string> lists{"nid001",
                                       "nid[008-011]",
                                       "x[9-011]",
                                       "x[01-9]",
                                       "n[1-2,5,3]",
                                       "a[1-2]b[3,5]",
                                       "a[1-3]b[1-2]",
                                       "a[1-2]b[1-2]c[1-3]",
                                       "a[1-2]b[1-2]c[1-2]d[1-2]",
                                       "login1,gpu[1-2] cpu07",
                                       "x[1-2]-[3-4]",
                                       "[1-3]",
                                       "x[1-2],x1",
                                       "x[001-2]",
                                       "x[1-]",
                                       "a[1-3]b[7]c[1-2],z[1-2]y[1-2]"};
  for (const auto& list : lists) {
    const auto out = run_tool({"env", "SLURM_CONF=" + conf, "scontrol", "show", "hostnames", list});
    ASSERT_TRUE(out) << "scontrol failed on " << list;
    Hosts expected;
    std::istringstream in(*out);
    for (std::string h; std::getline(in, h);) expected.push_back(h);
    EXPECT_EQ(expand_hostlist(list), expected) << list;
  }
  for (const auto& bad : {"x[3-1]", "x[]", "c[1-2]y", "x[1-65537]", "x[1,,2]"}) {
    const auto out = run_tool({"env", "SLURM_CONF=" + conf, "scontrol", "show", "hostnames", bad});
    ASSERT_TRUE(out);
    EXPECT_EQ(*out, "") << bad << ": scontrol prints no host (and 'Invalid hostlist' on stderr)";
    EXPECT_THROW(expand_hostlist(bad), InputError) << bad;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace aerun
