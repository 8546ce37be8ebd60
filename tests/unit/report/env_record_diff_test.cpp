// What `aerun diff` says about two environment records: the parts that differ, line by line.
#include "aerun/report/env_record_diff.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aerun {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

EnvRecord record(const std::string& env, const std::string& pip) {
  EnvRecord r;
  r.items = {{"kernel", "", "Linux 6.1.0"}, {"environment", "", env}, {"pip freeze", "", pip}};
  return r;
}

TEST(EnvRecordDiff, AChangedVariableShowsItsOldLineThenItsNewOne) {
  const EnvRecord a = record("A=1\nNCCL_ALGO=Ring\nOMP_NUM_THREADS=8\nZ=2", "torch==2.1.0");
  const EnvRecord b = record("A=1\nNCCL_ALGO=Tree\nOMP_NUM_THREADS=8\nZ=2", "torch==2.1.0");
  const EnvRecordDiff d = diff_env_records(&a, &b, false);
  EXPECT_EQ(d.different, 1);
  EXPECT_EQ(d.text,
            "environment record (1 part differs, 2 the same)\n"
            "  environment\n"
            "    - NCCL_ALGO=Ring\n"
            "    + NCCL_ALGO=Tree\n");
}

TEST(EnvRecordDiff, PackagesAddedRemovedAndUpgradedAndPartsOnlyInOne) {
  EnvRecord a = record("A=1", "numpy==1.26.4\ntorch==2.1.0\nscipy==1.11");
  EnvRecord b = record("A=1", "numpy==1.26.4\ntorch==2.2.0\napex==0.1");
  b.items.push_back({"nvidia-smi", "", "0, A100"});
  const EnvRecordDiff d = diff_env_records(&a, &b, false);
  EXPECT_EQ(d.different, 2);
  EXPECT_THAT(d.text, HasSubstr("  pip freeze\n    - torch==2.1.0\n    + torch==2.2.0\n"
                                "    - scipy==1.11\n    + apex==0.1\n"));
  EXPECT_THAT(d.text, HasSubstr("  nvidia-smi  only in B\n"));
  EXPECT_THAT(d.text, Not(HasSubstr("numpy")));
}

TEST(EnvRecordDiff, AStatusChangeIsShownAndTheSamePartsListedWithAll) {
  EnvRecord a = record("A=1", "x==1");
  EnvRecord b = record("A=1", "x==1");
  a.items.push_back({"provenance torch", "", "2.1.0"});
  b.items.push_back({"provenance torch", "exit code 1", "ModuleNotFoundError: torch"});
  const EnvRecordDiff d = diff_env_records(&a, &b, true);
  EXPECT_THAT(d.text, HasSubstr("  provenance torch\n    status  A ok  B exit code 1\n"));
  EXPECT_THAT(d.text, HasSubstr("  the same: kernel, environment, pip freeze\n"));
}

TEST(EnvRecordDiff, LongChangesAreCutAndMissingRecordsSaid) {
  std::string ea, eb;
  for (int i = 0; i < 100; ++i) {
    ea += "V" + std::to_string(i) + "=a\n";
    eb += "V" + std::to_string(i) + "=b\n";
  }
  const EnvRecord a = record(ea, ""), b = record(eb, "");
  const EnvRecordDiff d = diff_env_records(&a, &b, false, 10);
  EXPECT_THAT(d.text, HasSubstr("... 190 more changed lines"));
  EXPECT_EQ(diff_env_records(nullptr, nullptr, false).text, "");
  EXPECT_EQ(diff_env_records(&a, nullptr, false).different, 1);
  EXPECT_THAT(diff_env_records(nullptr, &b, false).text, HasSubstr("only B has one"));
}

TEST(EnvRecordDiff, ControlCharactersInValuesArePrintedEscaped) {
  const EnvRecord a = record("PS1=\x1b[31m$", "");
  const EnvRecord b = record("PS1=plain", "");
  EXPECT_THAT(diff_env_records(&a, &b, false).text, Not(HasSubstr("\x1b")));
}

}  // namespace
}  // namespace aerun
