// SPDX-License-Identifier: Apache-2.0
#include "common/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gsys {

Result<std::string> ReadRegularFile(const std::string& path, size_t max_bytes, bool follow_links,
                                    bool* cut) {
  int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (follow_links ? 0 : O_NOFOLLOW);
  int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT) return Error(StatusCode::kNotFound, "'" + path + "' does not exist");
    if (err == ELOOP && !follow_links) {
      return Error(StatusCode::kBadInput, "'" + path + "' is a symbolic link");
    }
    return Error(StatusCode::kBadInput, "'" + path + "' cannot be read: " + std::strerror(err));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Error(StatusCode::kBadInput, "'" + path + "' is not a regular file");
  }
  std::string text;
  char buf[16384];
  bool more = false;
  for (;;) {
    size_t want = sizeof(buf);
    if (text.size() >= max_bytes) want = 1;  // one byte tells whether more follows
    ssize_t n = ::read(fd, buf, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return Error(StatusCode::kIoError, "'" + path + "' cannot be read: " + std::strerror(err));
    }
    if (n == 0) break;
    size_t room = max_bytes - std::min(max_bytes, text.size());
    if (static_cast<size_t>(n) > room) {
      text.append(buf, room);
      more = true;
      break;
    }
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  if (cut != nullptr) *cut = more;
  return text;
}

}  // namespace gsys
