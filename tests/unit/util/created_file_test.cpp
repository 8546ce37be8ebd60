// Files aerun creates are never written through what someone put at their path (issue 40): a
// symbolic link, a hard link to another file, a FIFO. Each is replaced by aerun's own file; the
// file it pointed at is left exactly as it was.
#include "aerun/util/created_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "aerun/util/atomic_file.hpp"
#include "aerun/util/error.hpp"

namespace fs = std::filesystem;

namespace {

class CreatedFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "aerun-created-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    victim_ = (dir_ / "victim.txt").string();
    std::ofstream(victim_) << "the user's own file\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string read(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  void expect_victim_untouched() const { EXPECT_EQ(read(victim_), "the user's own file\n"); }

  fs::path dir_;
  std::string victim_;
};

TEST_F(CreatedFile, ASymbolicLinkAtThePathIsReplacedNotFollowed) {
  const std::string path = (dir_ / "run-a1.log").string();
  fs::create_symlink(victim_, path);
  aerun::write_created_file(path, "aerun's log\n", "log");
  expect_victim_untouched();
  EXPECT_FALSE(fs::is_symlink(path));
  EXPECT_EQ(read(path), "aerun's log\n");
}

TEST_F(CreatedFile, AHardLinkToAnotherFileIsReplacedNotWrittenInto) {
  const std::string path = (dir_ / "run-a1.log").string();
  fs::create_hard_link(victim_, path);
  aerun::write_created_file(path, "aerun's log\n", "log");
  expect_victim_untouched();
  EXPECT_EQ(read(path), "aerun's log\n");
}

TEST_F(CreatedFile, AFifoAtThePathNeitherBlocksNorStays) {
  const std::string path = (dir_ / "run.stamps").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
  const aerun::UniqueFd fd = aerun::create_file(path, aerun::CreateMode::Append);
  ASSERT_GE(fd.get(), 0);
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(path)));
}

TEST_F(CreatedFile, AFileOfAerunsOwnIsTruncatedOrAppendedTo) {
  const std::string path = (dir_ / "own.log").string();
  aerun::write_created_file(path, "first\n", "log");
  aerun::write_created_file(path, "second\n", "log");
  EXPECT_EQ(read(path), "second\n");
  {
    const aerun::UniqueFd fd = aerun::create_file(path, aerun::CreateMode::Append);
    ASSERT_EQ(::write(fd.get(), "more\n", 5), 5);
  }
  EXPECT_EQ(read(path), "second\nmore\n");
}

TEST_F(CreatedFile, ADirectoryAtThePathIsAnErrorNamingIt) {
  const std::string path = (dir_ / "taken").string();
  fs::create_directory(path);
  try {
    aerun::write_created_file(path, "x", "log");
    FAIL() << "no error";
  } catch (const aerun::SystemError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
}

TEST_F(CreatedFile, AFolderOfAerunsIsNeverALinkPutThere) {
  const fs::path elsewhere = dir_ / "elsewhere";
  fs::create_directory(elsewhere);
  const std::string plots = (dir_ / "site" / "plots").string();
  fs::create_directories(dir_ / "site");
  fs::create_directory_symlink(elsewhere, plots);
  aerun::make_own_directory(plots);
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(plots)));
  aerun::write_created_file(plots + "/fig.svg", "<svg/>", "figure");
  EXPECT_TRUE(fs::is_empty(elsewhere));
}

TEST_F(CreatedFile, EveryFolderOfAerunsOnAPathIsNeverALinkPutThere) {
  // logs/<case>: a link planted at logs/ (the parent), not only at <case>, is not followed; the
  // folders above the ones aerun owns are the user's, links and all.
  const fs::path elsewhere = dir_ / "elsewhere";
  fs::create_directory(elsewhere);
  fs::create_directories(dir_ / "real");
  fs::create_directory_symlink(dir_ / "real", dir_ / "project");  // the user's own link
  fs::create_directory_symlink(elsewhere, dir_ / "project" / "logs");
  const std::string logs = (dir_ / "project" / "logs" / "case").string();
  aerun::make_own_directory(logs, 2);
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(dir_ / "real" / "logs")));
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(dir_ / "real" / "logs" / "case")));
  EXPECT_TRUE(fs::is_symlink(dir_ / "project"));
  aerun::write_created_file(logs + "/x-a1.log", "step 1\n", "log");
  EXPECT_TRUE(fs::is_empty(elsewhere));
  aerun::make_own_directory(logs, 2);  // again: the folders are there, kept
  EXPECT_EQ(read(logs + "/x-a1.log"), "step 1\n");
}

TEST_F(CreatedFile, AFolderOfAerunsSwappedForALinkAfterItWasMadeIsNotWrittenThrough) {
  // The window between making logs/<case> and opening a log in it: a link put at logs/<case>
  // then (a group-writable project folder) sent the log elsewhere, the file opened by its path.
  // A file of aerun's folders is now made relative to the folder walked with O_NOFOLLOW.
  const fs::path elsewhere = dir_ / "elsewhere";
  fs::create_directory(elsewhere);
  const std::string logs = (dir_ / "logs" / "case").string();
  aerun::make_own_directory(logs, 2);
  fs::remove(logs);
  fs::create_directory_symlink(elsewhere, logs);
  aerun::write_created_file(logs + "/x-a1.log", "step 1\n", "log", 2);
  EXPECT_TRUE(fs::is_empty(elsewhere));
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(logs)));
  EXPECT_EQ(read(logs + "/x-a1.log"), "step 1\n");
  // The same at logs/ itself, for create_own_file's descriptor.
  fs::remove_all(dir_ / "logs");
  fs::create_directory_symlink(elsewhere, dir_ / "logs");
  {
    const aerun::UniqueFd fd = aerun::create_own_file(logs + "/x-a2.log", 2);
    ASSERT_GE(fd.get(), 0);
    ASSERT_EQ(::write(fd.get(), "step 2\n", 7), 7);
  }
  EXPECT_TRUE(fs::is_empty(elsewhere));
  EXPECT_EQ(read(logs + "/x-a2.log"), "step 2\n");
}

TEST_F(CreatedFile, AnExactModeIsSetOnTheOpenFileWhateverTheUmask) {
  // A job script is executable (0755) even when the user's umask is 077; set with fchmod, never
  // by a path a link could be put at.
  const mode_t old = ::umask(077);
  aerun::write_created_file((dir_ / "job.sh").string(), "#!/bin/bash\n", "job script", 0, 0755);
  ::umask(old);
  EXPECT_EQ(fs::status(dir_ / "job.sh").permissions(),
            fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                fs::perms::others_read | fs::perms::others_exec);
}

TEST_F(CreatedFile, AnAtomicWritesTemporaryFileIsNewEveryTime) {
  // The temporary name was `<path>.aerun-tmp-<pid>`: a link planted at it was followed. Now it is
  // made with O_EXCL under a name nobody can guess; links planted at every pid-named one are not
  // touched.
  const std::string path = (dir_ / "index.html").string();
  const std::string planted = path + ".aerun-tmp-" + std::to_string(::getpid());
  fs::create_symlink(victim_, planted);
  aerun::write_file_atomic(path, "<html/>");
  expect_victim_untouched();
  EXPECT_EQ(read(path), "<html/>");
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::others_read, fs::perms::others_read);
}

}  // namespace
