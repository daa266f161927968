// SPDX-License-Identifier: Apache-2.0
#include "upload/file_upload.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "upload/upload.h"

namespace gsys::upload {
namespace {

namespace fs = std::filesystem;

class FileUploadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "gsys-upload-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string Write(const std::string& name, const std::string& data) {
    std::string p = root_ + "/" + name;
    std::ofstream(p, std::ios::binary) << data;
    return p;
  }
  static std::string Read(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string root_;
};

TEST_F(FileUploadTest, CopiesIntoNewNestedDirectory) {
  std::string data(3 << 20, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 131 % 251);
  std::string src = Write("r.gsys-rep", data);
  Status s = UploadFile(src, "file://" + root_ + "/out/a/b/");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(Read(root_ + "/out/a/b/r.gsys-rep"), data);
  // No temporary file is left behind.
  int files = 0;
  for (auto& e : fs::directory_iterator(root_ + "/out/a/b")) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

TEST_F(FileUploadTest, ReplacesExistingFile) {
  std::string src = Write("r.txt", "new");
  fs::create_directories(root_ + "/out");
  Write("out/r.txt", "old contents");
  ASSERT_TRUE(UploadFile(src, "file://" + root_ + "/out").ok());
  EXPECT_EQ(Read(root_ + "/out/r.txt"), "new");
}

TEST_F(FileUploadTest, MissingSourceIsNotFound) {
  Status s = UploadFile(root_ + "/nope.gsys-rep", "file://" + root_ + "/out/");
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_NE(s.message().find("nope.gsys-rep"), std::string::npos) << s.message();
}

TEST_F(FileUploadTest, DirectorySourceIsRejected) {
  Status s = UploadFile(root_, "file://" + root_ + "/out/");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
}

TEST_F(FileUploadTest, UnwritableTargetIsIoError) {
  std::string src = Write("r.txt", "x");
  Write("blocker", "a file where a directory should be");
  Status s = UploadFile(src, "file://" + root_ + "/blocker/sub/");
  EXPECT_EQ(s.code(), StatusCode::kIoError) << s.message();
  EXPECT_EQ(s.message().rfind("upload: ", 0), 0u);
}

TEST_F(FileUploadTest, CopyIsReadable) {
  std::string src = Write("r.txt", "x");
  ASSERT_TRUE(UploadFile(src, "file://" + root_ + "/out/").ok());
  struct stat st {};
  ASSERT_EQ(::stat((root_ + "/out/r.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

}  // namespace
}  // namespace gsys::upload
