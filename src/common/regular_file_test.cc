// SPDX-License-Identifier: Apache-2.0
#include "common/regular_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace gsys {
namespace {

namespace fs = std::filesystem;

class RegularFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gsys_regular_file_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string P(const char* name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(RegularFileTest, ReadsAtMostMaxBytesAndSaysWhenMoreFollowed) {
  std::ofstream(P("f")) << "0123456789";
  bool cut = true;
  auto all = ReadRegularFile(P("f"), 10, false, &cut);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(*all, "0123456789");
  EXPECT_FALSE(cut);
  auto part = ReadRegularFile(P("f"), 4, false, &cut);
  ASSERT_TRUE(part.ok());
  EXPECT_EQ(*part, "0123");
  EXPECT_TRUE(cut);
}

// A FIFO would block a plain open until a writer comes (it hung gsys import and recipe diff);
// /dev/zero would be read forever; a directory is no file.
TEST_F(RegularFileTest, FifoDeviceAndDirectoryAreRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo(P("fifo").c_str(), 0600), 0);
  fs::create_directory(P("dir"));
  fs::create_symlink("/dev/zero", P("zero"));
  for (const char* name : {"fifo", "dir", "zero"}) {
    auto r = ReadRegularFile(P(name), 1 << 20, true);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.status().code(), StatusCode::kBadInput) << name;
    EXPECT_NE(r.status().message().find("not a regular file"), std::string::npos)
        << r.status().message();
  }
  EXPECT_EQ(ReadRegularFile(P("missing"), 10, true).status().code(), StatusCode::kNotFound);
}

TEST_F(RegularFileTest, LinksAreFollowedOnlyWhenAsked) {
  std::ofstream(P("f")) << "text";
  fs::create_symlink(P("f"), P("link"));
  auto no = ReadRegularFile(P("link"), 10, false);
  ASSERT_FALSE(no.ok());
  EXPECT_NE(no.status().message().find("symbolic link"), std::string::npos);
  auto yes = ReadRegularFile(P("link"), 10, true);
  ASSERT_TRUE(yes.ok());
  EXPECT_EQ(*yes, "text");
}

}  // namespace
}  // namespace gsys
