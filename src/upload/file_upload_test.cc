// SPDX-License-Identifier: Apache-2.0
#include "upload/file_upload.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/file_mode.h"
#include "upload/pinned_file.h"
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

// The copy has the umask's mode, never wider than the file copied (it was 0644 always: an
// uploaded 0600 report became world-readable).
TEST_F(FileUploadTest, CopyModeIsTheUmasksNeverWiderThanTheSource) {
  std::string open_src = Write("r.txt", "x");
  ASSERT_EQ(::chmod(open_src.c_str(), 0644), 0);
  std::string private_src = Write("p.gsys-rep", "x");
  ASSERT_EQ(::chmod(private_src.c_str(), 0600), 0);
  ASSERT_TRUE(UploadFile(open_src, "file://" + root_ + "/out/").ok());
  ASSERT_TRUE(UploadFile(private_src, "file://" + root_ + "/out/").ok());
  struct stat st {};
  ASSERT_EQ(::stat((root_ + "/out/r.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, ModeUnderUmask(0666) & 0644u);
  ASSERT_EQ(::stat((root_ + "/out/p.gsys-rep").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// PinnedFile (upload/pinned_file.h), with the same scratch directory.
class PinnedFileTest : public FileUploadTest {};

// The attack: the window report is written, then (before or during the upload) another user
// who may write the output directory puts a link to the victim's secret at its name.
TEST_F(PinnedFileTest, ReadsThePinnedFileAfterItsPathIsSwappedForALink) {
  std::string report = Write("w.gsys-rep", "the report");
  std::string secret = Write("secret", "private key material");
  auto pinned = PinFile(report, false);
  ASSERT_TRUE(pinned.ok()) << pinned.status().message();
  fs::remove(report);
  fs::create_symlink(secret, report);
  EXPECT_EQ(pinned->size(), 10u);
  EXPECT_EQ(Read(pinned->read_path()), "the report");
  EXPECT_NE(pinned->read_path(), report);
}

TEST_F(PinnedFileTest, RefusesALinkWhenTheCallerWroteTheFile) {
  std::string secret = Write("secret", "private key material");
  std::string report = root_ + "/w.gsys-rep";
  fs::create_symlink(secret, report);
  auto pinned = PinFile(report, false);
  ASSERT_FALSE(pinned.ok());
  EXPECT_NE(pinned.status().message().find("is a symbolic link"), std::string::npos)
      << pinned.status().message();
  // `gsys upload LINK` (the user's own choice) still follows it.
  auto followed = PinFile(report, true);
  ASSERT_TRUE(followed.ok()) << followed.status().message();
  EXPECT_EQ(Read(followed->read_path()), "private key material");
}

TEST_F(PinnedFileTest, AFifoIsRefusedWithoutBlocking) {
  std::string fifo = root_ + "/f.gsys-rep";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto pinned = PinFile(fifo, true);
  ASSERT_FALSE(pinned.ok());
  EXPECT_NE(pinned.status().message().find("not a regular file"), std::string::npos);
}

TEST_F(PinnedFileTest, WindowUploadOfAPlantedLinkCopiesNothing) {
  std::string secret = Write("secret", "private key material");
  std::string report = root_ + "/w.gsys-rep";
  fs::create_symlink(secret, report);
  UploadOptions o;
  o.follow_links = false;
  Status s = UploadFile(report, "file://" + root_ + "/out/", o);
  ASSERT_FALSE(s.ok());
  EXPECT_FALSE(fs::exists(root_ + "/out/w.gsys-rep"));
}

}  // namespace
}  // namespace gsys::upload
