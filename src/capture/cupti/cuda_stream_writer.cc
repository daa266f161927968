// SPDX-License-Identifier: Apache-2.0
#include "capture/cupti/cuda_stream_writer.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "format/chunk.h"
#include "format/session_files.h"

namespace gsys::capture::cupti {

bool CudaStreamWriter::Open(const char* session_dir, uint32_t pid, uint64_t stream_id) {
  char path[1200];
  if (!format::ProcessFilePath(path, sizeof(path), session_dir, pid, stream_id,
                               format::kStreamFileSuffix)) {
    return false;
  }
  fd_ = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) return false;
  pid_ = pid;
  stream_id_ = stream_id;
  payload_.reserve(kChunkBytes);
  return true;
}

bool CudaStreamWriter::Append(format::RecordKind kind, uint32_t tid, const void* body,
                              size_t body_size, const char* text, size_t text_len) {
  size_t size = format::RecordSize(body_size, text_len);
  if (fd_ < 0 || size > 0xFFFF) {
    ++dropped_;
    return false;
  }
  if (payload_.size() + size > kChunkBytes) Flush();
  size_t at = payload_.size();
  payload_.resize(at + size, 0);
  format::RecordHeader h{static_cast<uint16_t>(kind), static_cast<uint16_t>(size), tid};
  std::memcpy(&payload_[at], &h, sizeof(h));
  std::memcpy(&payload_[at + sizeof(h)], body, body_size);
  if (text_len != 0) std::memcpy(&payload_[at + sizeof(h) + body_size], text, text_len);
  ++records_;
  return true;
}

void CudaStreamWriter::Flush(bool final_chunk) {
  if (fd_ < 0 || (payload_.empty() && !final_chunk)) return;
  format::ChunkHeader h = format::MakeChunkHeader(pid_, stream_id_, seq_++, payload_.data(),
                                                  static_cast<uint32_t>(payload_.size()), records_,
                                                  final_chunk ? format::kChunkFinal : 0u);
  // One writev(2) per chunk: a chunk is either whole on disk or cut at the very end.
  iovec iov[2] = {{&h, sizeof(h)}, {payload_.data(), payload_.size()}};
  size_t total = sizeof(h) + payload_.size();
  size_t done = 0;
  while (done < total) {
    ssize_t w;
    if (done == 0) {
      w = writev(fd_, iov, 2);
    } else if (done < sizeof(h)) {
      iovec rest[2] = {{reinterpret_cast<uint8_t*>(&h) + done, sizeof(h) - done}, iov[1]};
      w = writev(fd_, rest, 2);
    } else {
      w = write(fd_, payload_.data() + (done - sizeof(h)), total - done);
    }
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      ++write_errors_;
      break;
    }
    done += static_cast<size_t>(w);
  }
  bytes_written_ += done;
  payload_.clear();
  records_ = 0;
}

void CudaStreamWriter::Close() {
  if (fd_ < 0) return;
  Flush(true);
  close(fd_);
  fd_ = -1;
}

}  // namespace gsys::capture::cupti
