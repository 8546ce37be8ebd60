// Hostfiles of every kind read into unique hosts with their slots, in order.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "aerun/cluster/hostfile.hpp"
#include "aerun/util/error.hpp"

namespace aerun {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kDir = std::string(AERUN_FIXTURES) + "/cluster/";

std::vector<int> slots_of(const Hostfile& hf) {
  std::vector<int> out;
  for (const auto& h : hf.hosts) out.push_back(h.slots);
  return out;
}

std::string error_of(const std::string& text) {
  try {
    parse_hostfile(text, "hf");
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for:\n" << text;
  return "";
}

TEST(Hostfile, APolarisNodefileListsEachFqdnOnce) {
  const Hostfile hf = read_hostfile(kDir + "polaris_nodefile");
  EXPECT_EQ(hf.format, HostfileFormat::Plain);
  EXPECT_THAT(hf.names(), ElementsAre("x3205c0s25b0n0.hsn.cm.polaris.alcf.anl.gov",
                                      "x3205c0s25b1n0.hsn.cm.polaris.alcf.anl.gov"));
  EXPECT_THAT(slots_of(hf), ElementsAre(1, 1));
}

TEST(Hostfile, RepeatedLinesAreSlotsAndAShortNameMatchesItsFqdn) {
  const Hostfile hf = read_hostfile(kDir + "pbs_nodefile_repeated");
  EXPECT_THAT(hf.names(), ElementsAre("nid001", "nid002.hsn"));  // first spelling kept
  EXPECT_THAT(slots_of(hf), ElementsAre(4, 4));
}

TEST(Hostfile, OpenMpiSlotsWithCommentsAndBlankLines) {
  const Hostfile hf = read_hostfile(kDir + "openmpi_hostfile");
  EXPECT_EQ(hf.format, HostfileFormat::OpenMpi);
  EXPECT_THAT(hf.names(), ElementsAre("node01", "node02"));
  EXPECT_THAT(slots_of(hf), ElementsAre(4, 4));
}

TEST(Hostfile, MpichHostColonCount) {
  const Hostfile hf = read_hostfile(kDir + "mpich_hostfile");
  EXPECT_EQ(hf.format, HostfileFormat::Mpich);
  EXPECT_THAT(hf.names(), ElementsAre("node01", "node02"));
  EXPECT_THAT(slots_of(hf), ElementsAre(4, 4));
}

TEST(Hostfile, DistinctDomainsAndAddressesStayDistinct) {
  const Hostfile hf = parse_hostfile("a.one\na.two\n127.0.0.1\n127.0.0.2\nlocalhost\n");
  EXPECT_THAT(hf.names(), ElementsAre("a.one", "a.two", "127.0.0.1", "127.0.0.2", "localhost"));
}

TEST(Hostfile, HostsKeepTheOrderOfFirstAppearance) {
  const Hostfile hf = parse_hostfile("b\na\nb\nc\na\n");
  EXPECT_THAT(hf.names(), ElementsAre("b", "a", "c"));
  EXPECT_THAT(slots_of(hf), ElementsAre(2, 2, 1));
}

TEST(Hostfile, BadLinesNameFileLineAndColumn) {
  EXPECT_THAT(error_of("a\n  b slots=x\n"), StartsWith("hf:2:3: hostfile: bad slot count 'x'"));
  EXPECT_THAT(error_of("a:0\n"), HasSubstr("at least 1"));
  EXPECT_THAT(error_of("a slots=2\nb:2\n"), StartsWith("hf:2:1: hostfile: mixes Open MPI"));
  EXPECT_THAT(error_of("a cpus=2\n"), HasSubstr("unexpected 'cpus=2'"));
}

TEST(Hostfile, AMissingOrEmptyFileIsAnInputError) {
  EXPECT_THROW(read_hostfile(kDir + "does-not-exist"), InputError);
  const std::string empty =
      (std::filesystem::temp_directory_path() / ("aerun-empty-hf-" + std::to_string(getpid())))
          .string();
  { std::ofstream(empty) << "# no host\n"; }
  try {
    read_hostfile(empty);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("lists no host"));
  }
  std::filesystem::remove(empty);
}

// Issue 40: PBS_NODEFILE=/dev/zero read until memory ran out; a FIFO blocked forever.
TEST(Hostfile, ADeviceOrAFifoIsRefusedAtOnceNamingTheFile) {
  const std::string fifo =
      (std::filesystem::temp_directory_path() / ("aerun-fifo-hf-" + std::to_string(getpid())))
          .string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), std::string("/dev/null"), fifo}) {
    try {
      read_hostfile(path);
      ADD_FAILURE() << path;
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(path));
      EXPECT_THAT(e.what(), HasSubstr("not a regular file"));
    }
  }
  std::filesystem::remove(fifo);
}

TEST(Hostfile, SlotsThatWouldOverflowAreRefused) {
  // 2,200 lines of `a:999999`: 2.2e9 slots, past a signed int (it was negative).
  std::string text;
  for (int i = 0; i < 2200; ++i) text += "a:999999\n";
  EXPECT_THAT(error_of(text), HasSubstr("slots in all"));
}

TEST(Hostfile, AHundredThousandHostsAreReadEachOnceWithItsFqdnMerged) {
  // The duplicate check is a lookup by short name (it compared every line with every host).
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "x" + std::to_string(i) + ".hsn.example\n";
  text += "x42\n";  // the short name of a host above: the same host
  const Hostfile hf = parse_hostfile(text, "big");
  ASSERT_EQ(hf.hosts.size(), 100000u);
  EXPECT_EQ(hf.hosts[42].slots, 2);
  EXPECT_EQ(hf.hosts[99999].name, "x99999.hsn.example");
}

}  // namespace
}  // namespace aerun
