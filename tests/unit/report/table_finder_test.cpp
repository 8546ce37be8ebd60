#include "aerun/report/table_finder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "aerun/util/error.hpp"

using aerun::find_table;
using aerun::InputError;
using ::testing::HasSubstr;

namespace fs = std::filesystem;

namespace {

// A scratch folder of case files, removed with the test.
class FindTableInDir : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::path(::testing::TempDir()) / (std::string("aerun_table_finder_") + info->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // A valid case `name` with one table `table`.
  void write_case(const std::string& rel, const std::string& name, const std::string& table) {
    write(rel, "case: " + name +
                   "\n"
                   "params: {x: [1, 2]}\n"
                   "command: echo t={x}\n"
                   "metrics:\n"
                   "  t: {regex: 't=([0-9]+)'}\n"
                   "tables:\n"
                   "  " +
                   table + ": {rows: [x], columns: [t]}\n");
  }

  void write(const std::string& rel, const std::string& text) {
    const fs::path p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }

  std::string path(const std::string& rel = "") const { return (root_ / rel).string(); }

  fs::path root_;
};

}  // namespace

TEST(FindTable, FindsTheDemoTableInTheShippedCaseFile) {
  const auto [c, t] = find_table("demo", std::string(AERUN_CASES_DIR) + "/demo.yaml");
  EXPECT_EQ(c.name, "demo");
  EXPECT_EQ(t.name, "demo");
  EXPECT_EQ(t.rows, std::vector<std::string>{"hidden"});
  EXPECT_EQ(t.references.size(), 12u);  // 3 widths x 4 columns
}

TEST_F(FindTableInDir, SearchesADirectoryRecursivelyForYamlAndYmlFiles) {
  write_case("a.yaml", "alpha", "ta");
  write_case("sub/deeper/b.yml", "beta", "tb");
  write("notes.txt", "tables: {tb: 1}\n");

  const auto [c, t] = find_table("tb", path());
  EXPECT_EQ(c.name, "beta");
  EXPECT_EQ(t.name, "tb");
  EXPECT_EQ(t.columns.at(0).source, "t");
}

TEST_F(FindTableInDir, SkipsFilesThatFailToLoadWithAWarningOnStderr) {
  write("0_broken.yaml", "case: broken\ncommand: [\n");
  write_case("1_good.yaml", "good", "tg");

  ::testing::internal::CaptureStderr();
  const auto [c, t] = find_table("tg", path());
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(c.name, "good");
  EXPECT_THAT(err, HasSubstr("warning"));
  EXPECT_THAT(err, HasSubstr("0_broken.yaml"));
}

TEST_F(FindTableInDir, AMissingTableIsAnInputErrorListingTheTablesThatExist) {
  write_case("a.yaml", "alpha", "fig6a");
  write_case("b.yaml", "beta", "fig7a");
  try {
    find_table("fig9", path());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no table named 'fig9'"));
    EXPECT_THAT(e.what(), HasSubstr("fig6a, fig7a"));
    EXPECT_THAT(e.what(), HasSubstr(path()));
  }
}

TEST_F(FindTableInDir, TwoCasesDefiningTheSameTableNameIsAnInputErrorNamingBothPlaces) {
  write_case("a.yaml", "alpha", "fig8");
  write_case("b.yaml", "beta", "fig8");
  try {
    find_table("fig8", path());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("b.yaml"));
    EXPECT_THAT(e.what(), HasSubstr("a.yaml"));
    EXPECT_THAT(e.what(), HasSubstr("tables.fig8"));
  }
}

TEST_F(FindTableInDir, ANamedCaseFileThatFailsToLoadReportsItsOwnError) {
  write("broken.yaml", "case: broken\ncommand: [\n");
  EXPECT_THROW(find_table("x", path("broken.yaml")), InputError);
}

TEST_F(FindTableInDir, APathThatDoesNotExistIsAnInputError) {
  EXPECT_THROW(find_table("x", path("nowhere")), InputError);
}
