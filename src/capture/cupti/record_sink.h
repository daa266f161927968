// SPDX-License-Identifier: Apache-2.0
// RecordSink: where CUDA records go once decoded from CUPTI buffers. The tracer's sink writes
// chunks of a raw stream (cuda_stream_writer.h); tests use an in-memory sink.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/record.h"

namespace gsys::capture::cupti {

class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // Appends one record: header(kind, tid), `body`, then `text` (may be empty), 8-byte padded.
  // Returns false when the record was dropped (counted by the sink). Not thread-safe: the
  // caller serializes (the tracer decodes one CUPTI buffer at a time).
  virtual bool Append(format::RecordKind kind, uint32_t tid, const void* body, size_t body_size,
                      const char* text, size_t text_len) = 0;

  template <typename Body>
  bool Add(format::RecordKind kind, uint32_t tid, const Body& body, const char* text = nullptr,
           size_t text_len = 0) {
    return Append(kind, tid, &body, sizeof(Body), text, text_len);
  }
};

}  // namespace gsys::capture::cupti
