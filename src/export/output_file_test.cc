// SPDX-License-Identifier: Apache-2.0
// OutputFile: many full buffers through the background writer arrive whole and in order; a
// failed background write shows at the next flush or at Commit, and leaves no file.
#include "export/output_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gsys::export_ {
namespace {

namespace fs = std::filesystem;

TEST(OutputFile, BuffersArriveInOrder) {
  fs::path dir = fs::temp_directory_path() / ("gsys_output_file_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string path = (dir / "out.txt").string();
  std::string expected;
  {
    Result<OutputFile> out = OutputFile::Create(path, /*replace=*/false);
    ASSERT_TRUE(out.ok()) << out.status().message();
    for (int i = 0; i < 400000; ++i) {
      std::string line = "line " + std::to_string(i) + "\n";
      expected += line;
      out->buffer().append(line);
      ASSERT_TRUE(out->MaybeFlush().ok());
    }
    EXPECT_EQ(out->bytes(), static_cast<int64_t>(expected.size()));
    ASSERT_TRUE(out->Commit().ok());
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream got;
  got << in.rdbuf();
  EXPECT_EQ(got.str(), expected);
  EXPECT_GT(expected.size(), size_t{4} << 20);  // several buffers went through the writer
  fs::remove_all(dir);
}

TEST(OutputFile, BackgroundWriteErrorIsReported) {
  fs::path dir = fs::temp_directory_path() / ("gsys_output_err_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string path = (dir / "out.txt").string();
  // Writes past 2 MiB fail with EFBIG (SIGXFSZ ignored) for the rest of this test.
  struct rlimit old_limit {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  struct rlimit limit = old_limit;
  limit.rlim_cur = rlim_t{2} << 20;
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  Status status = OkStatus();
  {
    Result<OutputFile> out = OutputFile::Create(path, /*replace=*/false);
    ASSERT_TRUE(out.ok()) << out.status().message();
    for (int i = 0; i < 16 && status.ok(); ++i) {
      out->buffer().append(std::string(1 << 20, 'x'));
      status = out->MaybeFlush();
    }
    if (status.ok()) status = out->Commit();
  }
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("cannot write"), std::string::npos) << status.message();
  EXPECT_FALSE(fs::exists(path));  // nothing left behind
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gsys::export_
