// SPDX-License-Identifier: Apache-2.0
#include "report/reader/file_check.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

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
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    if (ec && ec != std::errc::no_such_file_or_directory) {
      return Bad(path, "cannot be read: " + ec.message());
    }
    return Error(StatusCode::kNotFound, "report: '" + path + "' does not exist");
  }
  if (fs::is_directory(status)) return Bad(path, "is a directory, not a report file");
  if (!fs::is_regular_file(status)) return Bad(path, "is not a regular file");
  uintmax_t size = fs::file_size(path, ec);
  if (ec) return Bad(path, "cannot be read: " + ec.message());
  if (size == 0) return Bad(path, "is empty, not a report");

  // The 100-byte SQLite header (https://www.sqlite.org/fileformat.html#the_database_header).
  unsigned char header[100] = {};
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return Bad(path, "cannot be read");
  size_t got = std::fread(header, 1, sizeof header, file);
  std::fclose(file);
  static const char kMagic[] = "SQLite format 3";  // followed by a NUL byte
  if (got < sizeof header || std::memcmp(header, kMagic, sizeof kMagic) != 0) {
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
