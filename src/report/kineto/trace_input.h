// SPDX-License-Identifier: Apache-2.0
// TraceInput: the bytes of a trace file, plain JSON or gzip (detected by content, not by name),
// read through zlib in fixed 256 KiB chunks, so memory does not grow with the file. It is a
// RapidJSON input stream (Peek/Take/Tell). Only regular files are opened (no FIFO, device or
// directory); a damaged gzip stream ends the input and is reported by error().
// One thread.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/status.h"

namespace gsys::report::kineto {

class TraceInput {
 public:
  using Ch = char;

  static Result<std::unique_ptr<TraceInput>> Open(const std::string& path);
  ~TraceInput();
  TraceInput(const TraceInput&) = delete;
  TraceInput& operator=(const TraceInput&) = delete;

  // RapidJSON stream concept (input only).
  Ch Peek() const { return pos_ < len_ ? buf_[pos_] : '\0'; }
  Ch Take() {
    if (pos_ >= len_) return '\0';
    Ch c = buf_[pos_++];
    if (pos_ == len_) Refill();
    return c;
  }
  size_t Tell() const { return static_cast<size_t>(consumed_ + pos_); }
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  size_t PutEnd(Ch*) { return 0; }

  // Size of the file on disk and how much of it zlib has read so far (for the progress bar).
  uint64_t file_size() const { return file_size_; }
  uint64_t file_offset() const;
  bool compressed() const { return compressed_; }
  // Non-empty when reading stopped on damage ("gzip data is damaged: ...").
  const std::string& error() const { return error_; }
  // Called with file_offset() after each chunk is read (the progress bar): no per-byte cost.
  void set_on_chunk(std::function<void(uint64_t)> f) { on_chunk_ = std::move(f); }

 private:
  TraceInput() = default;
  void Refill();

  gzFile gz_ = nullptr;
  std::unique_ptr<char[]> buf_;
  size_t pos_ = 0, len_ = 0;
  uint64_t consumed_ = 0;  // uncompressed bytes before buf_
  uint64_t file_size_ = 0;
  bool compressed_ = false;
  std::string error_;
  std::function<void(uint64_t)> on_chunk_;
};

}  // namespace gsys::report::kineto
