// SPDX-License-Identifier: Apache-2.0
// The file an upload sends, opened once and read through that descriptor: renaming or
// replacing the path afterwards (a link planted where a window report was, in an output
// directory others may write) changes nothing about which bytes leave the machine.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

namespace gsys::upload {

class PinnedFile {
 public:
  PinnedFile() = default;
  PinnedFile(const PinnedFile&) = delete;
  PinnedFile& operator=(const PinnedFile&) = delete;
  PinnedFile(PinnedFile&& other) noexcept;
  PinnedFile& operator=(PinnedFile&& other) noexcept;
  ~PinnedFile();

  uint64_t size() const { return size_; }
  // A path that opens the pinned file itself (/proc/self/fd/N) for readers that take a path.
  const std::string& read_path() const { return read_path_; }

 private:
  friend Result<PinnedFile> PinFile(const std::string& path, bool follow_links);
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string read_path_;
};

// Opens `path` for an upload: a regular file (a FIFO or device is refused without blocking on
// it). With follow_links false, a symbolic link as the last component is refused: the caller
// names a file it wrote itself. Errors are one line starting with "upload:".
Result<PinnedFile> PinFile(const std::string& path, bool follow_links);

}  // namespace gsys::upload
