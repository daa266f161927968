// SPDX-License-Identifier: Apache-2.0
// Spilled tables: the rows of a rank's trace-like table go to a temporary CSV part as soon as the
// rank is mapped, and the output table is the concatenation of the parts in rank order, so the
// memory of a recipe run does not grow with the number of inputs. This file owns the scratch
// directory, the part files and reading them back (a few rows for the page, or line by line).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/recipe/frame.h"
#include "common/status.h"

namespace gsys::analysis::recipe {

// A private temporary directory ($TMPDIR or /tmp, "gsys-recipe-XXXXXX"), removed with its files
// when the object is destroyed.
class ScratchDir {
 public:
  static Result<std::shared_ptr<ScratchDir>> Create();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  explicit ScratchDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// Appends bytes to a file through a buffer (written when it passes 1 MiB and on Close).
class PartWriter {
 public:
  static Result<PartWriter> Open(const std::string& path, bool append);
  PartWriter(PartWriter&& other) noexcept;
  PartWriter& operator=(PartWriter&&) = delete;
  ~PartWriter();
  std::string* buffer() { return &buffer_; }  // append here, then call Flush(false)
  Status Flush(bool force);
  Status Close();

 private:
  PartWriter(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  std::FILE* file_ = nullptr;
  std::string path_;
  std::string buffer_;
};

// Writes the rows of `frame` to `path` as CSV lines with `rank` as a first field (no header).
Status WritePart(const std::string& path, const Frame& frame, int64_t rank);

// Appends the bytes of the file at `from` to `out`.
Status AppendFileTo(std::FILE* out, const std::string& from);

// Calls `piece` with the file's bytes in pieces of at most `piece_size` (an empty file: never).
Status ForEachPiece(const std::string& path, size_t piece_size,
                    const std::function<Status(std::string_view)>& piece);

// Calls `line` for every CSV record of the parts, in order (a record spans lines when a quoted
// field holds a newline); stops early when `line` returns false.
Status ForEachRecord(const std::vector<std::string>& parts,
                     const std::function<bool(const std::string&)>& line);

// The first `limit` rows of the parts, parsed (ParseCsv) under `columns`.
Result<Frame> ReadRows(const std::vector<std::string>& columns,
                       const std::vector<std::string>& parts, size_t limit);

}  // namespace gsys::analysis::recipe
