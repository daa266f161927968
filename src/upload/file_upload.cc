// SPDX-License-Identifier: Apache-2.0
#include "upload/file_upload.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "common/file_mode.h"

namespace gsys::upload {
namespace {

namespace fs = std::filesystem;

Status IoError(const std::string& what, int err) {
  return Error(StatusCode::kIoError, "upload: " + what + ": " + std::strerror(err));
}

// Writes all of `data[0, n)` to `fd`, retrying short writes and EINTR.
bool WriteAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// Copies `in` to `out` in 1 MiB blocks.
bool CopyFd(int in, int out) {
  std::vector<char> buf(1 << 20);
  for (;;) {
    ssize_t r = ::read(in, buf.data(), buf.size());
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return false;
    if (r == 0) return true;
    if (!WriteAll(out, buf.data(), static_cast<size_t>(r))) return false;
  }
}

}  // namespace

Status CopyFileAtomically(const std::string& local_path, const std::string& dir,
                          const std::string& name, const std::string& display_path) {
  const std::string& shown = display_path.empty() ? local_path : display_path;
  int in = ::open(local_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    return Error(errno == ENOENT ? StatusCode::kNotFound : StatusCode::kIoError,
                 "upload: cannot read '" + shown + "': " + std::strerror(errno));
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    ::close(in);
    return Error(StatusCode::kIoError,
                 "upload: cannot create directory '" + dir + "': " + ec.message());
  }
  std::string tmp = dir + "." + name + ".gsys-upload-XXXXXX";
  std::vector<char> tmpl(tmp.begin(), tmp.end());
  tmpl.push_back('\0');
  int out = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (out < 0) {
    int err = errno;
    ::close(in);
    return IoError("cannot create a temporary file in '" + dir + "'", err);
  }
  tmp.assign(tmpl.data());
  bool copied = CopyFd(in, out);
  int err = errno;
  if (copied && ::fsync(out) != 0) {
    copied = false;
    err = errno;
  }
  // mkostemp creates 0600. The copy gets the umask's mode, never wider than the file it
  // copies: a fixed 0644 made every uploaded 0600 report world-readable in DIR.
  struct stat src {};
  mode_t mode = ModeUnderUmask(0666) & (::fstat(in, &src) == 0 ? src.st_mode & 0666 : 0600);
  (void)::fchmod(out, mode);
  ::close(in);
  if (::close(out) != 0 && copied) {
    copied = false;
    err = errno;
  }
  if (!copied) {
    ::unlink(tmp.c_str());
    return IoError("cannot copy '" + shown + "' to '" + dir + "'", err);
  }
  std::string final_path = dir + name;
  if (::rename(tmp.c_str(), final_path.c_str()) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    return IoError("cannot rename into '" + final_path + "'", err);
  }
  return OkStatus();
}

}  // namespace gsys::upload
