// SPDX-License-Identifier: Apache-2.0
#include "launcher/remove_tree_at.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace gsys::launcher {
namespace {

namespace fs = std::filesystem;

class RemoveTreeAtTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("gsys_remove_tree_at_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  static void Touch(const fs::path& p) { std::ofstream(p) << "x"; }
  static int OpenDir(const fs::path& p) {
    return ::open(p.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  }
  fs::path root_;
};

TEST_F(RemoveTreeAtTest, EmptiesNestedTreeWithoutFollowingLinks) {
  fs::path dir = root_ / "session";
  fs::path outside = root_ / "outside";
  fs::create_directories(dir / "requests" / "deeper");
  fs::create_directories(outside);
  Touch(dir / "1-1.gsysraw");
  Touch(dir / "requests" / "a.req");
  Touch(dir / "requests" / "deeper" / "b");
  Touch(outside / "keep");
  fs::create_directory_symlink(outside, dir / "link-to-dir");
  fs::create_symlink(outside / "keep", dir / "link-to-file");
  int fd = OpenDir(dir);
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(RemoveTreeAt(fd));
  ::close(fd);
  EXPECT_TRUE(fs::is_empty(dir));
  EXPECT_TRUE(fs::exists(outside / "keep"));  // the links went, not what they point at
}

TEST_F(RemoveTreeAtTest, EmptiesTheOpenedDirectoryNotOneSwappedInUnderItsName) {
  // The race of a stale session directory's removal: checked and locked, then another user
  // renames it away and puts a directory of the victim's under the same name.
  fs::path dir = root_ / "session";
  fs::create_directories(dir);
  Touch(dir / "stale.gsysraw");
  int fd = OpenDir(dir);
  ASSERT_GE(fd, 0);
  fs::rename(dir, root_ / "moved-away");
  fs::create_directories(dir);
  Touch(dir / "victim-data");
  EXPECT_TRUE(RemoveTreeAt(fd));
  ::close(fd);
  EXPECT_TRUE(fs::exists(dir / "victim-data"));
  EXPECT_TRUE(fs::is_empty(root_ / "moved-away"));
}

}  // namespace
}  // namespace gsys::launcher
