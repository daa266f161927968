// SPDX-License-Identifier: Apache-2.0
// Chunks: the unit of a raw stream file. Each chunk is a ChunkHeader followed by
// `payload_size` bytes of records (record.h). Chunks are independently decodable, so a file
// cut anywhere (a SIGKILLed process, a full disk) still yields every complete chunk before
// the cut, and a damaged chunk is skipped by resynchronizing on the next magic.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/record.h"

namespace gsys::format {

inline constexpr uint32_t kChunkMagic = 0x43595347;  // "GSYC" little-endian
// Stream files, stop markers and logs are named in session_files.h.
inline constexpr uint32_t kMaxChunkPayload = 16u << 20;

enum ChunkFlags : uint32_t {
  kChunkFinal = 1u << 0,  // written by the exit/crash flush: the process ended cleanly or by signal
};

struct ChunkHeader {
  uint32_t magic;           // kChunkMagic
  uint16_t format_version;  // kFormatVersion of the writer
  uint16_t header_size;     // sizeof(ChunkHeader) of the writer (readers skip unknown tails)
  uint32_t pid;
  uint32_t record_count;
  uint64_t stream_id;     // unique per process image: CLOCK_MONOTONIC ns at library init
  uint64_t seq;           // 0, 1, 2, ... within the stream
  uint32_t payload_size;  // bytes of records after the header, multiple of 8
  uint32_t payload_crc;   // Crc32c of the payload
  uint32_t flags;         // ChunkFlags
  uint32_t header_crc;    // Crc32c of the header bytes before this field
};
static_assert(sizeof(ChunkHeader) == 48);

// Fills every field of a header for `payload`, including both checksums.
ChunkHeader MakeChunkHeader(uint32_t pid, uint64_t stream_id, uint64_t seq, const void* payload,
                            uint32_t payload_size, uint32_t record_count, uint32_t flags);

enum class ChunkCheck {
  kOk,
  kBadMagic,
  kBadHeaderCrc,
  kUnsupportedVersion,
  kBadSize,
};

// Validates a header (magic, header checksum, version, sizes); not the payload.
ChunkCheck CheckChunkHeader(const ChunkHeader& header);

}  // namespace gsys::format
