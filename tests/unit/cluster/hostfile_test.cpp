// Hostfiles of every kind read into unique hosts with their slots, in order.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
  try {
    read_hostfile("/dev/null");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("lists no host"));
  }
}

}  // namespace
}  // namespace aerun
