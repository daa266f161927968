// SPDX-License-Identifier: Apache-2.0
#include "format/stream_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "format/crc32c.h"

namespace gsys::format {

bool RecordCursor::Next(RecordView* out) {
  if (malformed_ || p_ >= end_) return false;
  if (end_ - p_ < static_cast<ptrdiff_t>(sizeof(RecordHeader))) {
    malformed_ = true;
    return false;
  }
  RecordHeader h;
  std::memcpy(&h, p_, sizeof(h));
  if (h.size < sizeof(RecordHeader) || h.size % 8 != 0 || h.size > end_ - p_) {
    malformed_ = true;
    return false;
  }
  out->kind = static_cast<RecordKind>(h.kind);
  out->tid = h.tid;
  out->data = p_;
  out->size = h.size;
  p_ += h.size;
  return true;
}

// How much of a mapped stream a pass reads before it drops the pages it read from RSS.
constexpr size_t kReleaseEveryBytes = 8u << 20;

void StreamFile::ReleaseResidentPages() const {
  if (map_ != nullptr) madvise(map_, size_, MADV_DONTNEED);
  read_since_release_ = 0;
}

void StreamFile::NoteRead(size_t bytes) const {
  read_since_release_ += bytes;
  if (read_since_release_ >= kReleaseEveryBytes) ReleaseResidentPages();
}

Result<StreamFile> StreamFile::Open(const std::string& path) {
  // O_NONBLOCK: a FIFO in a hostile session directory must not block the import.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    return Error(errno == ENOENT ? StatusCode::kNotFound : StatusCode::kIoError,
                 "format: cannot open '" + path + "': " + std::strerror(errno));
  }
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    ::close(fd);
    return Error(StatusCode::kIoError, "format: cannot stat '" + path + "'");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Error(StatusCode::kInvalidArgument, "format: '" + path + "' is not a regular file");
  }
  StreamFile file;
  file.size_ = static_cast<size_t>(st.st_size);
  if (file.size_ > 0) {
    void* map = mmap(nullptr, file.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      ::close(fd);
      return Error(StatusCode::kIoError, "format: cannot map '" + path + "'");
    }
    file.map_ = map;
    file.bytes_ = static_cast<const uint8_t*>(map);
  }
  ::close(fd);
  file.Scan();
  return file;
}

StreamFile StreamFile::FromBytes(const uint8_t* bytes, size_t size) {
  StreamFile file;
  file.bytes_ = bytes;
  file.size_ = size;
  file.Scan();
  return file;
}

StreamFile::StreamFile(StreamFile&& o) noexcept
    : map_(o.map_),
      bytes_(o.bytes_),
      size_(o.size_),
      chunks_(std::move(o.chunks_)),
      stats_(o.stats_) {
  o.map_ = nullptr;
  o.bytes_ = nullptr;
  o.size_ = 0;
}

StreamFile& StreamFile::operator=(StreamFile&& o) noexcept {
  if (this != &o) {
    if (map_ != nullptr) munmap(map_, size_);
    map_ = o.map_;
    bytes_ = o.bytes_;
    size_ = o.size_;
    chunks_ = std::move(o.chunks_);
    stats_ = o.stats_;
    o.map_ = nullptr;
    o.bytes_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

StreamFile::~StreamFile() {
  if (map_ != nullptr) munmap(map_, size_);
}

void StreamFile::Scan() {
  size_t pos = 0;
  size_t noted = 0;
  while (pos + sizeof(ChunkHeader) <= size_) {
    NoteRead(pos - noted);
    noted = pos;
    ChunkHeader h;
    std::memcpy(&h, bytes_ + pos, sizeof(h));
    ChunkCheck check = CheckChunkHeader(h);
    if (check == ChunkCheck::kOk || check == ChunkCheck::kUnsupportedVersion) {
      size_t end = pos + h.header_size + h.payload_size;
      if (check == ChunkCheck::kUnsupportedVersion) {
        // A header from another version: skip the chunk as a unit when its sizes are sane
        // (every version's header holds at least this one's fields). A header_size of 0 used
        // to leave `pos` in place: an endless loop on 56 crafted bytes (found by
        // fuzz/stream_decode_fuzzer, corpus/stream_decode_fuzzer/crash-unsupported-zero-size).
        if (h.header_size < sizeof(ChunkHeader) || h.header_size % 8 != 0 ||
            h.payload_size > kMaxChunkPayload || h.payload_size % 8 != 0) {
          stats_.skipped_bytes += 8;
          pos += 8;
          continue;
        }
        ++stats_.unsupported_chunks;
        if (end > size_) break;
        pos = end;
        continue;
      }
      if (end > size_) {
        stats_.truncated_tail_bytes += size_ - pos;
        pos = size_;
        break;
      }
      const uint8_t* payload = bytes_ + pos + h.header_size;
      if (Crc32c(payload, h.payload_size) == h.payload_crc) {
        chunks_.push_back(ChunkRef{h, payload});
        ++stats_.chunks;
        if (h.flags & kChunkFinal) stats_.final_chunk = true;
      } else {
        ++stats_.bad_chunks;
      }
      pos = end;
      continue;
    }
    // Not a chunk boundary: move on to the next 8-byte-aligned position.
    stats_.skipped_bytes += 8;
    pos += 8;
  }
  if (pos < size_) stats_.truncated_tail_bytes += size_ - pos;
  std::stable_sort(chunks_.begin(), chunks_.end(), [](const ChunkRef& a, const ChunkRef& b) {
    return a.header.seq < b.header.seq;
  });
  for (size_t i = 1; i < chunks_.size(); ++i) {
    uint64_t prev = chunks_[i - 1].header.seq;
    uint64_t cur = chunks_[i].header.seq;
    if (cur > prev + 1) stats_.seq_gaps += cur - prev - 1;
  }
}

}  // namespace gsys::format
