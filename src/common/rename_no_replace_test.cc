// SPDX-License-Identifier: Apache-2.0
#include "common/rename_no_replace.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

namespace gsys {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(RenameNoReplaceTest, MovesIntoAFreeNameAndNeverReplaces) {
  fs::path dir =
      fs::temp_directory_path() /
      ("gsys_rename_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "a") << "first";
  std::ofstream(dir / "b") << "second";
  EXPECT_EQ(RenameNoReplace((dir / "a").c_str(), (dir / "out").c_str()), 0);
  EXPECT_EQ(Read(dir / "out"), "first");
  EXPECT_FALSE(fs::exists(dir / "a"));
  EXPECT_EQ(RenameNoReplace((dir / "b").c_str(), (dir / "out").c_str()), EEXIST);
  EXPECT_EQ(Read(dir / "out"), "first");
  EXPECT_TRUE(fs::exists(dir / "b"));
  fs::create_directory(dir / "d1");
  fs::create_directory(dir / "d2");
  std::ofstream(dir / "d2" / "x") << "kept";
  EXPECT_EQ(RenameNoReplace((dir / "d1").c_str(), (dir / "d2").c_str()), EEXIST);
  EXPECT_EQ(Read(dir / "d2" / "x"), "kept");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gsys
