// SPDX-License-Identifier: Apache-2.0
// StreamBuilder: assembles records and chunks in memory with std::vector. For tests, fuzz
// seeds and fixture generators; the capture library has its own allocation-free writer.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "format/chunk.h"
#include "format/record.h"

namespace gsys::format {

class StreamBuilder {
 public:
  StreamBuilder(uint32_t pid, uint64_t stream_id) : pid_(pid), stream_id_(stream_id) {}

  // Appends one record: header, `body`, then `text` (and `text2`), zero-padded to 8 bytes.
  template <typename Body>
  void Add(RecordKind kind, uint32_t tid, const Body& body, std::string_view text = {},
           std::string_view text2 = {}) {
    size_t size = RecordSize(sizeof(Body), text.size() + text2.size());
    size_t at = payload_.size();
    payload_.resize(at + size, 0);
    RecordHeader h{static_cast<uint16_t>(kind), static_cast<uint16_t>(size), tid};
    std::memcpy(&payload_[at], &h, sizeof(h));
    std::memcpy(&payload_[at + sizeof(h)], &body, sizeof(Body));
    if (!text.empty())
      std::memcpy(&payload_[at + sizeof(h) + sizeof(Body)], text.data(), text.size());
    if (!text2.empty()) {
      std::memcpy(&payload_[at + sizeof(h) + sizeof(Body) + text.size()], text2.data(),
                  text2.size());
    }
    ++records_;
  }

  // Closes the pending records into a chunk appended to the stream bytes.
  void FlushChunk(uint32_t flags = 0) {
    ChunkHeader h = MakeChunkHeader(pid_, stream_id_, seq_++, payload_.data(),
                                    static_cast<uint32_t>(payload_.size()), records_, flags);
    const auto* hp = reinterpret_cast<const uint8_t*>(&h);
    bytes_.insert(bytes_.end(), hp, hp + sizeof(h));
    bytes_.insert(bytes_.end(), payload_.begin(), payload_.end());
    payload_.clear();
    records_ = 0;
  }

  // Skips a chunk sequence number, as a chunk the writer could not write leaves it.
  void SkipChunk() { ++seq_; }

  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  uint32_t pid_;
  uint64_t stream_id_;
  uint64_t seq_ = 0;
  uint32_t records_ = 0;
  std::vector<uint8_t> payload_;
  std::vector<uint8_t> bytes_;
};

}  // namespace gsys::format
