// SPDX-License-Identifier: Apache-2.0
#include "report/reader/file_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace gsys::report::internal {
namespace {

uint32_t BigEndian(const unsigned char* p, int bytes) {
  uint32_t value = 0;
  for (int i = 0; i < bytes; ++i) value = (value << 8) | p[i];
  return value;
}

Status Bad(const std::string& path, const std::string& what) {
  return Error(StatusCode::kBadInput, "report: '" + path + "' " + what);
}

}  // namespace

Status CheckSqliteFile(const std::string& path) {
  // One descriptor for every check: by name, a FIFO swapped in after a stat made the header
  // read (and SQLite's open) wait for a writer for good. O_NONBLOCK: opening a FIFO returns.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT) {
      return Error(StatusCode::kNotFound, "report: '" + path + "' does not exist");
    }
    return Bad(path, std::string("cannot be read: ") + std::strerror(err));
  }
  struct stat st {};
  bool stated = ::fstat(fd, &st) == 0;
  unsigned char header[100] = {};
  ssize_t got =
      stated && S_ISREG(st.st_mode) && st.st_size > 0 ? ::pread(fd, header, sizeof header, 0) : 0;
  ::close(fd);
  if (!stated) return Bad(path, "cannot be read");
  if (S_ISDIR(st.st_mode)) return Bad(path, "is a directory, not a report file");
  if (!S_ISREG(st.st_mode)) return Bad(path, "is not a regular file");
  uintmax_t size = static_cast<uintmax_t>(st.st_size);
  if (size == 0) return Bad(path, "is empty, not a report");

  // The 100-byte SQLite header (https://www.sqlite.org/fileformat.html#the_database_header).
  static const char kMagic[] = "SQLite format 3";  // followed by a NUL byte
  if (got < static_cast<ssize_t>(sizeof header) ||
      std::memcmp(header, kMagic, sizeof kMagic) != 0) {
    return Bad(path, "is not an SQLite database (not a gsys or nsys report)");
  }
  uint32_t page_size = BigEndian(header + 16, 2);
  if (page_size == 1) page_size = 65536;
  uint32_t change_counter = BigEndian(header + 24, 4);
  uint32_t page_count = BigEndian(header + 28, 4);
  uint32_t valid_for = BigEndian(header + 92, 4);
  if (page_size < 512 || (page_size & (page_size - 1)) != 0) {
    return Bad(path, "is corrupt (bad SQLite page size)");
  }
  // The in-header page count is trustworthy only when valid_for matches the change counter.
  if (page_count != 0 && valid_for == change_counter) {
    uintmax_t expected = static_cast<uintmax_t>(page_count) * page_size;
    if (size < expected) {
      return Bad(path, "is truncated (" + std::to_string(size) + " of " + std::to_string(expected) +
                           " bytes)");
    }
  } else if (size % page_size != 0) {
    return Bad(path, "is truncated or corrupt (size is not a multiple of the page size)");
  }
  return OkStatus();
}

}  // namespace gsys::report::internal
