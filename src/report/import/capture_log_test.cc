// SPDX-License-Identifier: Apache-2.0
// The capture log files and the disk-reserve stop reason, read from a session directory.
#include "report/import/capture_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace gsys::report {
namespace {

namespace fs = std::filesystem;

class CaptureLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gsys_capture_log_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  fs::path dir_;
};

TEST_F(CaptureLogTest, EachDistinctMessageOnceWithTheOtherProcessesCounted) {
  Write("log-10.txt",
        "gsys[10]: capture stopped: disk full (the program continues)\n"
        "gsys[10]: seccomp: not made\n");
  Write("log-11.txt", "gsys[11]: capture stopped: disk full (the program continues)\n");
  Write("log-12.txt",
        "gsys[12]: capture stopped: disk full (the program continues)\n"
        "not a log line\n");
  Write("10-1.gsysraw", "gsys[10]: not a log file\n");
  std::vector<std::string> lines = ReadCaptureLog(dir_.string());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "gsys[10]: capture stopped: disk full (the program continues) (and 2 more processes)");
  EXPECT_EQ(lines[1], "gsys[10]: seccomp: not made");
}

TEST_F(CaptureLogTest, AStopNobodyCouldLogIsToldFromItsMarker) {
  Write("log-10.txt", "gsys[10]: capture stopped: disk full (the program continues)\n");
  Write("10-5.stopped-disk-full", "");
  Write("11-6.stopped-disk-full", "");  // no room left for its log line
  Write("12-7.stopped-file-size-limit", "");
  std::vector<std::string> lines = ReadCaptureLog(dir_.string());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "gsys[10]: capture stopped: disk full (the program continues)");
  EXPECT_EQ(lines[1], "gsys[11]: capture stopped: disk full");
  EXPECT_EQ(lines[2], "gsys[12]: capture stopped: file size limit (RLIMIT_FSIZE) reached");
  std::vector<std::string> reasons = ReadStopReasons(dir_.string());
  ASSERT_EQ(reasons.size(), 3u);
  EXPECT_EQ(reasons[1], "capture stopped early in process 11: disk-full");
}

TEST_F(CaptureLogTest, NoLogFilesNoLines) {
  EXPECT_TRUE(ReadCaptureLog(dir_.string()).empty());
  EXPECT_TRUE(ReadCaptureLog((dir_ / "missing").string()).empty());
}

TEST_F(CaptureLogTest, ReserveStopNamesTheFilesystemAndTheFigures) {
  std::string why =
      DescribeReserveStop(dir_.string(), "free=1048576 reserve=2097152 total=1073741824");
  EXPECT_EQ(why.rfind("disk reserve reached on /", 0), 0u) << why;
  EXPECT_NE(why.find("(1.0 MiB free of 1.0 GiB, reserve 2.0 MiB"), std::string::npos) << why;
  // An unreadable marker still names the filesystem.
  EXPECT_EQ(DescribeReserveStop(dir_.string(), "").rfind("disk reserve reached on /", 0), 0u);
}

}  // namespace
}  // namespace gsys::report
