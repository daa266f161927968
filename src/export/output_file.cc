// SPDX-License-Identifier: Apache-2.0
#include "export/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

#include "common/file_mode.h"
#include "common/rename_no_replace.h"

namespace gsys::export_ {
namespace {

std::string DirOf(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

Status Appeared(const std::string& path) {
  return Error(StatusCode::kIoError, "export: output '" + path +
                                         "' appeared while exporting (another run wrote it); not "
                                         "replaced (use -f/--force-overwrite=true)");
}

Status IoError(const std::string& path, int err) {
  return Error(StatusCode::kIoError,
               "export: cannot write '" + path + "': " + std::string(std::strerror(err)));
}

}  // namespace

Status CheckOutput(const std::string& path, bool overwrite, bool directory) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!directory && S_ISDIR(st.st_mode)) {
      return Error(StatusCode::kIoError, "export: output '" + path + "' is a directory");
    }
    if (directory && !S_ISDIR(st.st_mode)) {
      return Error(StatusCode::kIoError, "export: output '" + path + "' is not a directory");
    }
    if (!overwrite) {
      return Error(StatusCode::kIoError, "export: output '" + path +
                                             "' already exists (use -f/--force-overwrite=true)");
    }
  }
  std::string dir = DirOf(path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Error(StatusCode::kIoError, "export: output directory '" + dir + "' does not exist");
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    return Error(StatusCode::kIoError, "export: output directory '" + dir + "' is not writable");
  }
  return OkStatus();
}

Result<OutputFile> OutputFile::Create(const std::string& path, bool replace, bool direct) {
  std::string tmp = direct ? path : path + ".tmp-XXXXXX";
  int fd = direct ? ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
                  : ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return IoError(path, errno);
  OutputFile file(fd, std::move(tmp), path, replace, direct);
  file.buffer_.reserve(kFlushBytes + (kFlushBytes >> 2));
  return file;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      tmp_(std::move(other.tmp_)),
      path_(std::move(other.path_)),
      replace_(other.replace_),
      direct_(other.direct_),
      buffer_(std::move(other.buffer_)),
      bytes_(other.bytes_) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    this->~OutputFile();
    new (this) OutputFile(std::move(other));
  }
  return *this;
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

Status OutputFile::Flush() {
  std::string_view data = buffer_;
  while (!data.empty()) {
    ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError(path_, errno);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  bytes_ += static_cast<int64_t>(buffer_.size());
  buffer_.clear();
  return OkStatus();
}

Status OutputFile::Commit() {
  GSYS_RETURN_IF_ERROR(Flush());
  ::fchmod(fd_, ModeUnderUmask(0666));  // as open(2) would have made it
  int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp_.c_str());
    return IoError(path_, err);
  }
  if (direct_) return OkStatus();
  int err = replace_ ? (::rename(tmp_.c_str(), path_.c_str()) == 0 ? 0 : errno)
                     : RenameNoReplace(tmp_.c_str(), path_.c_str());
  if (err != 0) {
    ::unlink(tmp_.c_str());
    return err == EEXIST ? Appeared(path_) : IoError(path_, err);
  }
  return OkStatus();
}

Result<OutputDirectory> OutputDirectory::Create(const std::string& path, bool replace) {
  std::string tmp = path + ".tmp-XXXXXX";
  if (::mkdtemp(tmp.data()) == nullptr) return IoError(path, errno);
  ::chmod(tmp.c_str(), ModeUnderUmask(0777));
  return OutputDirectory(std::move(tmp), path, replace);
}

OutputDirectory::OutputDirectory(OutputDirectory&& other) noexcept
    : tmp_(std::move(other.tmp_)),
      path_(std::move(other.path_)),
      replace_(other.replace_),
      committed_(other.committed_) {
  other.committed_ = true;
}

OutputDirectory::~OutputDirectory() {
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove_all(tmp_, ec);
  }
}

Status OutputDirectory::Commit() {
  std::error_code ec;
  std::string old;
  if (replace_ && std::filesystem::exists(path_, ec)) {
    old = path_ + ".old-XXXXXX";
    if (::mkdtemp(old.data()) == nullptr || ::rename(path_.c_str(), (old + "/d").c_str()) != 0) {
      return IoError(path_, errno);
    }
  }
  int err = RenameNoReplace(tmp_.c_str(), path_.c_str());
  if (err != 0) return err == EEXIST || err == ENOTEMPTY ? Appeared(path_) : IoError(path_, err);
  committed_ = true;
  if (!old.empty()) std::filesystem::remove_all(old, ec);
  return OkStatus();
}

}  // namespace gsys::export_
