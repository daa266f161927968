// SPDX-License-Identifier: Apache-2.0
// gsys_capture_sink_api: the sink entry points for libgsys-mpi.so (external_sink.h).
#include "capture/sink/external_sink.h"

#include "capture/entry/context.h"
#include "capture/sink/sink.h"

namespace gsys::capture {
namespace {

int Recording() { return RecordingOn() && InWindow() ? 1 : 0; }

int64_t Now() { return NowTicks(); }

int Emit(uint16_t kind, const void* body, uint32_t body_size, const char* text, uint32_t text_len) {
  const size_t size = format::RecordSize(body_size, text_len);
  if (size > UINT16_MAX) return 0;
  ThreadBuffer* b = t_thread.buffer;
  if (__builtin_expect(b == nullptr, 0)) {
    b = AcquireBuffer();
    if (b == nullptr) return 0;
  }
  uint8_t* p = b->Reserve(static_cast<uint32_t>(size));
  if (p == nullptr) return 0;
  format::RecordHeader h{kind, static_cast<uint16_t>(size), t_thread.tid};
  std::memcpy(p, &h, sizeof(h));
  std::memcpy(p + sizeof(h), body, body_size);
  if (text_len != 0) std::memcpy(p + sizeof(h) + body_size, text, text_len);
  const size_t used = sizeof(h) + body_size + text_len;
  if (used < size) std::memset(p + used, 0, size - used);
  if (__builtin_expect(b->Commit(static_cast<uint32_t>(size)), 0)) OnOwnBufferHalfFull(b);
  return 1;
}

const GsysSinkApi kApi = {kGsysSinkApiVersion, sizeof(GsysSinkApi), Recording, Now, Emit};

}  // namespace
}  // namespace gsys::capture

extern "C" __attribute__((visibility("default"))) const GsysSinkApi* gsys_capture_sink_api(
    uint32_t version, uint32_t trace) {
  using namespace gsys::capture;
  if (version != kGsysSinkApiVersion || !EnsureInitialized()) return nullptr;
  if (trace == kGsysSinkApiTraceMpi && CaptureContext().config.trace_mpi) return &kApi;
  return nullptr;
}
