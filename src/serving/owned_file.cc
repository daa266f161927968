// SPDX-License-Identifier: Apache-2.0
#include "serving/owned_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gsys::serving {
namespace {

constexpr off_t kMaxBytes = 64 * 1024;

}  // namespace

Result<format::SessionMeta> ReadOwnedKeyValues(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT) return Error(StatusCode::kNotFound, "cannot read '" + path + "'");
    if (err == ELOOP)
      return Error(StatusCode::kInvalidArgument, "ignored '" + path + "': a symbolic link");
    return Error(StatusCode::kInvalidArgument, "cannot read '" + path + "': " + std::strerror(err));
  }
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) {
    why = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else if (st.st_uid != ::geteuid()) {
    why = "owned by uid " + std::to_string(st.st_uid) + ", not by this user";
  } else if (st.st_size > kMaxBytes) {
    why = "larger than 64 KiB";
  }
  std::string text;
  if (why.empty()) {
    char buf[4096];
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof(buf));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || text.size() + static_cast<size_t>(n) > static_cast<size_t>(kMaxBytes)) {
        if (n != 0) why = n < 0 ? std::strerror(errno) : "larger than 64 KiB";
        break;
      }
      text.append(buf, static_cast<size_t>(n));
    }
  }
  ::close(fd);
  if (!why.empty()) return Error(StatusCode::kInvalidArgument, "ignored '" + path + "': " + why);
  return format::ParseSessionMeta(text);
}

Status WriteOwnedKeyValues(const std::string& path, const format::SessionMeta& kv) {
  std::string tmp = path + ".tmp";
  ::unlink(tmp.c_str());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return Error(StatusCode::kIoError, "cannot write '" + tmp + "': " + std::strerror(errno));
  std::string text = format::SerializeSessionMeta(kv);
  const char* p = text.data();
  size_t left = text.size();
  bool ok = true;
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Error(StatusCode::kIoError, "cannot write '" + path + "': " + std::strerror(err));
  }
  return OkStatus();
}

}  // namespace gsys::serving
