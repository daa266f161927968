// SPDX-License-Identifier: Apache-2.0
// Shared by the fuzz targets that feed raw streams: recomputes the checksums of every chunk
// header found at an 8-byte boundary, so that mutations reach the records instead of being
// rejected by the CRCs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "format/chunk.h"
#include "format/crc32c.h"

namespace gsys::fuzz {

inline void RepairChunkChecksums(uint8_t* bytes, size_t size) {
  using format::ChunkHeader;
  for (size_t pos = 0; pos + sizeof(ChunkHeader) <= size; pos += 8) {
    ChunkHeader h;
    std::memcpy(&h, bytes + pos, sizeof(h));
    if (h.magic != format::kChunkMagic) continue;
    size_t begin = pos + h.header_size;
    if (h.header_size >= sizeof(ChunkHeader) && begin <= size && h.payload_size <= size - begin) {
      h.payload_crc = format::Crc32c(bytes + begin, h.payload_size);
    }
    h.header_crc = format::Crc32c(&h, offsetof(ChunkHeader, header_crc));
    std::memcpy(bytes + pos, &h, sizeof(h));
  }
}

}  // namespace gsys::fuzz
