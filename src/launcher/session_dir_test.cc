// SPDX-License-Identifier: Apache-2.0
#include "launcher/session_dir.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace gsys::launcher {
namespace {

namespace fs = std::filesystem;

class SessionDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "gsys_session_dir_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(SessionDirTest, ASecondClaimOfALiveSessionFails) {
  std::string path = dir_ + "/r.gsys-session";
  auto first = ClaimSessionDir(path, "profile");
  ASSERT_TRUE(first.ok()) << first.status().message();
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  auto second = ClaimSessionDir(path, "profile");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(second.status().message().find("in use"), std::string::npos);
  // Only the session directory itself is there: the claim's temporary name is gone.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(SessionDirTest, ALeftoverOfADeadRunIsReplaced) {
  std::string path = dir_ + "/r.gsys-session";
  {
    auto dead = ClaimSessionDir(path, "profile");
    ASSERT_TRUE(dead.ok());
    std::ofstream(path + "/1-1.gsysraw") << "old";
  }  // the claim ends as the run's gsys dies
  auto next = ClaimSessionDir(path, "profile");
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_FALSE(fs::exists(path + "/1-1.gsysraw"));
}

TEST_F(SessionDirTest, NonDirectoriesAreRefused) {
  std::string path = dir_ + "/r.gsys-session";
  fs::create_directory_symlink(dir_, path);
  EXPECT_FALSE(ClaimSessionDir(path, "profile").ok());
  EXPECT_TRUE(fs::is_symlink(path));
}

TEST_F(SessionDirTest, PrivateDirsMustBeOwnAndClosed) {
  std::string root = dir_ + "/root";
  ASSERT_TRUE(EnsurePrivateDir(root, "launch").ok());
  struct stat st {};
  ASSERT_EQ(lstat(root.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_TRUE(EnsurePrivateDir(root, "launch").ok());
  chmod(root.c_str(), 0770);
  Status loose = EnsurePrivateDir(root, "launch");
  EXPECT_FALSE(loose.ok());
  EXPECT_NE(loose.message().find(root), std::string::npos);
  std::string link = dir_ + "/link";
  fs::create_directory_symlink(root, link);
  EXPECT_FALSE(EnsurePrivateDir(link, "launch").ok());
}

}  // namespace
}  // namespace gsys::launcher
