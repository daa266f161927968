// SPDX-License-Identifier: Apache-2.0
#include "upload/pinned_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace gsys::upload {

PinnedFile::PinnedFile(PinnedFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      size_(other.size_),
      read_path_(std::move(other.read_path_)) {}

PinnedFile& PinnedFile::operator=(PinnedFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    read_path_ = std::move(other.read_path_);
  }
  return *this;
}

PinnedFile::~PinnedFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<PinnedFile> PinFile(const std::string& path, bool follow_links) {
  int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (follow_links ? 0 : O_NOFOLLOW);
  int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    int err = errno;
    if (err == ELOOP && !follow_links) {
      return Error(StatusCode::kInvalidArgument,
                   "upload: '" + path + "' is a symbolic link, not the report written");
    }
    return Error(err == ENOENT ? StatusCode::kNotFound : StatusCode::kIoError,
                 "upload: cannot read '" + path + "': " + std::strerror(err));
  }
  PinnedFile f;
  f.fd_ = fd;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return Error(StatusCode::kIoError,
                 "upload: cannot read '" + path + "': " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return Error(StatusCode::kInvalidArgument, "upload: '" + path + "' is not a regular file");
  }
  f.size_ = static_cast<uint64_t>(st.st_size);
  std::string proc = "/proc/self/fd/" + std::to_string(fd);
  // Without /proc (rare: a bare chroot) the path is read again, as before pinning existed.
  struct stat again {};
  bool same =
      ::stat(proc.c_str(), &again) == 0 && again.st_dev == st.st_dev && again.st_ino == st.st_ino;
  f.read_path_ = same ? proc : path;
  return f;
}

}  // namespace gsys::upload
