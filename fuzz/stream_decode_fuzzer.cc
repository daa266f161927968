// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the raw-stream decoder (format/stream_reader) on arbitrary bytes — chunk scan,
// resynchronization, checksums, record cursor, body and text views. When the first byte is odd
// the input's chunk checksums are repaired first, so mutations reach the record decoder
// instead of stopping at a checksum mismatch.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "format/chunk.h"
#include "format/record.h"
#include "format/stream_reader.h"
#include "fuzz/chunk_repair.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  if (size > 0 && (data[0] & 1) != 0) {
    gsys::fuzz::RepairChunkChecksums(bytes.data(), bytes.size());
  }
  auto file = gsys::format::StreamFile::FromBytes(bytes.data(), bytes.size());
  uint64_t sink = 0;
  for (const auto& chunk : file.chunks()) {
    gsys::format::RecordCursor cursor(chunk.payload, chunk.header.payload_size);
    gsys::format::RecordView r;
    while (cursor.Next(&r)) {
      gsys::format::ProcessStartBody start;
      if (r.Body(&start)) {
        std::string_view name, cmdline;
        if (r.Text(sizeof(start), 0, start.name_len, &name)) sink += name.size();
        if (r.Text(sizeof(start), start.name_len, start.cmdline_len, &cmdline))
          sink += cmdline.size();
      }
      sink += static_cast<uint64_t>(r.kind) + r.size;
    }
  }
  return sink == 42 ? 0 : 0;
}
