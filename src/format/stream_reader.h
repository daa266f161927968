// SPDX-License-Identifier: Apache-2.0
// Reading raw stream files (used by report/import and tests; never by capture). A file is
// memory-mapped and scanned once: every chunk whose header and payload checksums hold is
// kept; damaged bytes are skipped by resynchronizing on the next chunk magic and counted in
// StreamStats, never treated as a hard error (a crash can cut a file anywhere).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "format/chunk.h"
#include "format/record.h"

namespace gsys::format {

// One record inside a chunk payload. `data` points at the RecordHeader.
struct RecordView {
  RecordKind kind = RecordKind::kPad;
  uint32_t tid = 0;
  const uint8_t* data = nullptr;
  uint32_t size = 0;  // whole record, header included

  // Copies the fixed body into `out`; false when the record is too short for T.
  template <typename T>
  bool Body(T* out) const {
    if (size < sizeof(RecordHeader) + sizeof(T)) return false;
    std::memcpy(out, data + sizeof(RecordHeader), sizeof(T));
    return true;
  }
  // `len` bytes that follow a body of `body_size` bytes plus `skip` bytes; empty view when
  // they would run past the record (the caller counts a malformed record).
  bool Text(size_t body_size, size_t skip, size_t len, std::string_view* out) const {
    size_t begin = sizeof(RecordHeader) + body_size + skip;
    if (begin + len > size) return false;
    *out = std::string_view(reinterpret_cast<const char*>(data) + begin, len);
    return true;
  }
};

// Iterates the records of one chunk payload.
class RecordCursor {
 public:
  RecordCursor(const uint8_t* payload, size_t size) : p_(payload), end_(payload + size) {}
  // Next record; false at the end or at a malformed record (then malformed() is true).
  bool Next(RecordView* out);
  bool malformed() const { return malformed_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool malformed_ = false;
};

struct StreamStats {
  uint64_t chunks = 0;                // valid chunks
  uint64_t bad_chunks = 0;            // header ok, payload checksum wrong
  uint64_t unsupported_chunks = 0;    // format version outside what this reader reads
  uint64_t skipped_bytes = 0;         // bytes skipped while resynchronizing
  uint64_t truncated_tail_bytes = 0;  // an incomplete chunk at the end (cut by a kill)
  uint64_t seq_gaps = 0;              // missing chunk sequence numbers
  bool final_chunk = false;           // the process flushed at exit or on a fatal signal
};

struct ChunkRef {
  ChunkHeader header;
  const uint8_t* payload;
};

// A memory-mapped raw stream file.
class StreamFile {
 public:
  static Result<StreamFile> Open(const std::string& path);
  // Decodes an in-memory image (tests, fuzzers); `bytes` must outlive the StreamFile.
  static StreamFile FromBytes(const uint8_t* bytes, size_t size);

  StreamFile(StreamFile&& other) noexcept;
  StreamFile& operator=(StreamFile&& other) noexcept;
  StreamFile(const StreamFile&) = delete;
  StreamFile& operator=(const StreamFile&) = delete;
  ~StreamFile();

  // Valid chunks sorted by sequence number.
  const std::vector<ChunkRef>& chunks() const { return chunks_; }
  const StreamStats& stats() const { return stats_; }
  size_t size() const { return size_; }
  // pid of the first valid chunk, 0 when there is none.
  uint32_t pid() const { return chunks_.empty() ? 0 : chunks_.front().header.pid; }
  // Drops the mapped file's pages from this process's resident set (MADV_DONTNEED on a clean
  // private mapping: the next access reads them again from the page cache). Views into the
  // file stay valid. Readers call it as they go, so an import's memory does not grow with
  // the size of the streams.
  void ReleaseResidentPages() const;
  // A pass over the chunks read `bytes` more: every 8 MiB read, the pages are released.
  void NoteRead(size_t bytes) const;

 private:
  StreamFile() = default;
  void Scan();

  void* map_ = nullptr;
  const uint8_t* bytes_ = nullptr;
  size_t size_ = 0;
  mutable size_t read_since_release_ = 0;  // NoteRead's count (reading does not change the file)
  std::vector<ChunkRef> chunks_;
  StreamStats stats_;
};

}  // namespace gsys::format
