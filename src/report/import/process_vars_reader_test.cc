// SPDX-License-Identifier: Apache-2.0
#include "report/import/process_vars_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace gsys::report {
namespace {

namespace fs = std::filesystem;

class ProcessVarsReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gsys_vars_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
  }
  fs::path dir_;
};

// torchrun's worker: the fork child (no RANK yet) execs with RANK=1; the pid is rank 1's.
TEST_F(ProcessVarsReaderTest, ThePidTakesItsLastImagesValues) {
  Write("20-100.gsysraw", "");
  Write("20-100.vars", "");
  Write("20-300.gsysraw", "");
  Write("20-300.vars", std::string("RANK=1\0", 7));
  Write("20-200.vars", std::string("RANK=7\0", 7));  // an image between the two
  auto vars = ReadProcessVars(dir_.string());
  ASSERT_EQ(vars.size(), 1u);
  EXPECT_EQ(vars[20], (ProcessVars{{"RANK", "1"}}));
}

TEST_F(ProcessVarsReaderTest, AProcessWithoutAVarsFileHasNoValues) {
  Write("10-5.gsysraw", "");  // the launcher (started before RANK)
  Write("11-6.gsysraw", "");
  Write("11-6.vars", std::string("RANK=0\0", 7));
  Write("11-6.vars.tmp", std::string("RANK=9\0", 7));  // a write cut before its rename
  Write("log-10.txt", "gsys[10]: x\n");
  auto vars = ReadProcessVars(dir_.string());
  ASSERT_EQ(vars.size(), 2u);
  EXPECT_TRUE(vars[10].empty());
  EXPECT_EQ(vars[11], (ProcessVars{{"RANK", "0"}}));
}

TEST_F(ProcessVarsReaderTest, AVarsEntryThatIsNotAFileIsNotRead) {
  fs::create_directory(dir_ / "12-1.vars");
  auto vars = ReadProcessVars(dir_.string());
  ASSERT_EQ(vars.size(), 1u);
  EXPECT_TRUE(vars[12].empty());
}

}  // namespace
}  // namespace gsys::report
