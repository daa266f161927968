// SPDX-License-Identifier: Apache-2.0
// CudaStreamWriter: a RecordSink that packs records into chunks (format/chunk.h) and appends
// them to one raw stream file per process, "<session>/<pid>-<stream_id>.gsysraw", next to the
// CPU-side stream. Each Flush() ends a chunk with write(2), so a SIGKILL loses only records
// not yet flushed (the tracer flushes after every CUPTI buffer, i.e. at least every 250 ms).
//
// Threading: not thread-safe; the tracer serializes Append/Flush under its decode lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "capture/cupti/record_sink.h"

namespace gsys::capture::cupti {

class CudaStreamWriter : public RecordSink {
 public:
  // Opens (creates) the stream file. `stream_id` must be unique among the process's streams.
  // Returns false (and stays inert) when the file cannot be created.
  bool Open(const char* session_dir, uint32_t pid, uint64_t stream_id);
  bool Append(format::RecordKind kind, uint32_t tid, const void* body, size_t body_size,
              const char* text, size_t text_len) override;
  // Writes the pending records as one chunk (no-op when empty). `final_chunk` marks exit.
  void Flush(bool final_chunk = false);
  void Close();

  bool is_open() const { return fd_ >= 0; }
  uint64_t dropped() const { return dropped_; }
  uint64_t write_errors() const { return write_errors_; }
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  static constexpr size_t kChunkBytes = 4u << 20;

  int fd_ = -1;
  uint32_t pid_ = 0;
  uint64_t stream_id_ = 0;
  uint64_t seq_ = 0;
  uint32_t records_ = 0;
  std::vector<uint8_t> payload_;
  uint64_t dropped_ = 0;
  uint64_t write_errors_ = 0;
  uint64_t bytes_written_ = 0;
};

}  // namespace gsys::capture::cupti
