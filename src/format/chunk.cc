// SPDX-License-Identifier: Apache-2.0
#include "format/chunk.h"

#include <cstddef>

#include "format/crc32c.h"

namespace gsys::format {

ChunkHeader MakeChunkHeader(uint32_t pid, uint64_t stream_id, uint64_t seq, const void* payload,
                            uint32_t payload_size, uint32_t record_count, uint32_t flags) {
  ChunkHeader h{};
  h.magic = kChunkMagic;
  h.format_version = kFormatVersion;
  h.header_size = sizeof(ChunkHeader);
  h.pid = pid;
  h.record_count = record_count;
  h.stream_id = stream_id;
  h.seq = seq;
  h.payload_size = payload_size;
  h.payload_crc = Crc32c(payload, payload_size);
  h.flags = flags;
  h.header_crc = Crc32c(&h, offsetof(ChunkHeader, header_crc));
  return h;
}

ChunkCheck CheckChunkHeader(const ChunkHeader& h) {
  if (h.magic != kChunkMagic) return ChunkCheck::kBadMagic;
  if (h.header_crc != Crc32c(&h, offsetof(ChunkHeader, header_crc))) {
    return ChunkCheck::kBadHeaderCrc;
  }
  if (h.format_version < kMinReadableFormatVersion || h.format_version > kFormatVersion) {
    return ChunkCheck::kUnsupportedVersion;
  }
  if (h.header_size < sizeof(ChunkHeader) || h.header_size % 8 != 0 ||
      h.payload_size > kMaxChunkPayload || h.payload_size % 8 != 0) {
    return ChunkCheck::kBadSize;
  }
  return ChunkCheck::kOk;
}

}  // namespace gsys::format
