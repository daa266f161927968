// SPDX-License-Identifier: Apache-2.0
// Output of an export: files and directories written under a temporary name and renamed into place
// on success, so an interrupted or failed export never leaves a partial output.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gsys::export_ {

// Fails with kIoError when `path` exists and !`overwrite` (the message names --force-overwrite),
// when it exists as the wrong kind (a directory for a file output or the reverse), or when its
// parent directory is missing or not writable. Writes nothing.
Status CheckOutput(const std::string& path, bool overwrite, bool directory);

// A buffered file written to "PATH.tmp-XXXXXX" and renamed to PATH by Commit(). Destroying it
// without Commit() removes the temporary file. Movable, not copyable; one thread at a time.
// From the first full buffer on, buffers are written by a background thread while the caller
// fills the next one (a write error shows at the next flush or at Commit).
class OutputFile {
 public:
  // Creates the temporary file beside `path` (or, with `direct`, `path` itself: for files inside
  // an OutputDirectory's temporary folder, which is renamed as a whole). Without `replace`,
  // Commit() fails rather than replace a `path` that appeared meanwhile (a concurrent run).
  static Result<OutputFile> Create(const std::string& path, bool replace, bool direct = false);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  // Appends to the buffer; writes it out once it holds kFlushBytes.
  Status Write(std::string_view data) {
    buffer_.append(data);
    return buffer_.size() >= kFlushBytes ? Flush() : OkStatus();
  }
  // The buffer, for callers that format in place; call MaybeFlush() after appending.
  std::string& buffer() { return buffer_; }
  Status MaybeFlush() { return buffer_.size() >= kFlushBytes ? Flush() : OkStatus(); }
  // Hands the buffer to the background writer (started on the first call).
  Status Flush();
  // Flushes, closes and renames into place (replacing an existing file only with `replace`).
  Status Commit();
  int64_t bytes() const { return bytes_ + static_cast<int64_t>(buffer_.size()); }

 private:
  static constexpr size_t kFlushBytes = 1 << 20;
  struct Writer;  // the background writer (output_file.cc)
  OutputFile(int fd, std::string tmp, std::string path, bool replace, bool direct);
  int fd_ = -1;
  std::string tmp_;
  std::string path_;
  bool replace_ = false;
  bool direct_ = false;
  std::string buffer_;
  int64_t bytes_ = 0;
  std::unique_ptr<Writer> writer_;
};

// A directory written as "PATH.tmp-XXXXXX" and renamed to PATH by Commit(); an existing PATH is
// replaced only then, and only with `replace` (else Commit() fails). Destroying it without
// Commit() removes the temporary directory.
class OutputDirectory {
 public:
  static Result<OutputDirectory> Create(const std::string& path, bool replace);
  OutputDirectory(OutputDirectory&& other) noexcept;
  OutputDirectory& operator=(OutputDirectory&&) = delete;
  OutputDirectory(const OutputDirectory&) = delete;
  ~OutputDirectory();

  // The path of `name` inside the temporary directory.
  std::string FilePath(const std::string& name) const { return tmp_ + "/" + name; }
  Status Commit();

 private:
  OutputDirectory(std::string tmp, std::string path, bool replace)
      : tmp_(std::move(tmp)), path_(std::move(path)), replace_(replace) {}
  std::string tmp_;
  std::string path_;
  bool replace_ = false;
  bool committed_ = false;
};

}  // namespace gsys::export_
