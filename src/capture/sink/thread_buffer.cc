// SPDX-License-Identifier: Apache-2.0
#include "capture/sink/thread_buffer.h"

namespace gsys::capture {

size_t ThreadBuffer::Drain(uint8_t* out, size_t cap, uint32_t* records) {
  uint64_t tail = tail_.load(std::memory_order_relaxed);
  const uint64_t head = head_.load(std::memory_order_acquire);
  size_t copied = 0;
  while (tail != head) {
    uint64_t pos = tail & mask_;
    format::RecordHeader h;
    __builtin_memcpy(&h, data_ + pos, sizeof(h));
    if (h.kind == static_cast<uint16_t>(format::RecordKind::kPad) && h.size == 0) {
      tail += mask_ + 1 - pos;
      continue;
    }
    if (copied + h.size > cap) break;
    __builtin_memcpy(out + copied, data_ + pos, h.size);
    copied += h.size;
    tail += h.size;
    ++*records;
  }
  tail_.store(tail, std::memory_order_release);
  return copied;
}

}  // namespace gsys::capture
