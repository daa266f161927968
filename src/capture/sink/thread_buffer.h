// SPDX-License-Identifier: Apache-2.0
// ThreadBuffer: a single-producer single-consumer byte ring of whole records.
//
// Threading: exactly one thread (the owner) calls Reserve/Commit; the writer thread (or a
// flushing signal handler holding the writer's drain lock) calls Drain. `head_` is published
// with release by the producer, `tail_` by the consumer. A record never wraps: when it does not
// fit before the end of the ring, the producer writes a pad header (kind kPad, size 0) meaning
// "skip to the start". When the ring is full the record is dropped and counted, never waited
// for (docs/architecture.md, decision 2). The first record that fits after a drop is preceded by a
// kThreadGap record, so the importer never pairs a push with a pop across lost records.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "format/record.h"

namespace gsys::capture {

class ThreadBuffer {
 public:
  // kReplaced: its thread moved to a larger buffer (sink.cc, GrowBuffer); the writer drains it
  // before that successor and then frees it.
  enum State : uint32_t { kFree = 0, kActive = 1, kRetired = 2, kReplaced = 3 };

  // `memory` must hold `capacity` bytes, `capacity` a power of two >= 4096.
  ThreadBuffer(uint8_t* memory, size_t capacity) : data_(memory), mask_(capacity - 1) {}

  // Producer: room for `size` bytes (a multiple of 8), or nullptr when full (dropped()
  // is incremented). Must be followed by Commit(size) before the next Reserve.
  uint8_t* Reserve(uint32_t size) {
    if (__builtin_expect(lost_, 0) && !MarkGap()) return Drop();
    uint8_t* p = ReserveRaw(size);
    return p != nullptr ? p : Drop();
  }

 private:
  uint8_t* ReserveRaw(uint32_t size) {
    uint64_t head = head_.load(std::memory_order_relaxed);
    uint64_t pos = head & mask_;
    uint64_t pad = (pos + size > mask_ + 1) ? (mask_ + 1 - pos) : 0;
    uint64_t need = head + pad + size;
    if (need - cached_tail_ > mask_ + 1) {
      cached_tail_ = tail_.load(std::memory_order_acquire);
      if (need - cached_tail_ > mask_ + 1) return nullptr;
    }
    if (pad != 0) {
      format::RecordHeader h{static_cast<uint16_t>(format::RecordKind::kPad), 0, 0};
      __builtin_memcpy(data_ + pos, &h, sizeof(h));
      pending_pad_ = pad;
      return data_;
    }
    pending_pad_ = 0;
    return data_ + pos;
  }

  uint8_t* Drop() {
    dropped_.store(dropped_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    lost_ = true;
    return nullptr;
  }

  // Writes the kThreadGap record; false when even that does not fit.
  bool MarkGap() {
    constexpr uint32_t kSize = sizeof(format::RecordHeader);
    uint8_t* p = ReserveRaw(kSize);
    if (p == nullptr) return false;
    format::RecordHeader h{static_cast<uint16_t>(format::RecordKind::kThreadGap), kSize,
                           tid.load(std::memory_order_relaxed)};
    __builtin_memcpy(p, &h, sizeof(h));
    Commit(kSize);
    lost_ = false;
    return true;
  }

 public:
  // Producer: publishes the reserved record. Returns true when the ring became more than half
  // full, so the caller can wake the writer early.
  bool Commit(uint32_t size) {
    uint64_t head = head_.load(std::memory_order_relaxed) + pending_pad_ + size;
    head_.store(head, std::memory_order_release);
    if (head - cached_tail_ <= (mask_ + 1) / 2) return false;
    cached_tail_ = tail_.load(std::memory_order_acquire);
    return head - cached_tail_ > (mask_ + 1) / 2;
  }

  // Consumer: copies whole records (pads skipped) into `out` up to `cap` bytes and frees
  // them. Returns bytes copied; `records` counts them.
  size_t Drain(uint8_t* out, size_t cap, uint32_t* records);

  bool Empty() const {
    return head_.load(std::memory_order_acquire) == tail_.load(std::memory_order_relaxed);
  }
  // Discards everything (fork child: the parent's records stay the parent's).
  void Reset() { tail_.store(head_.load(std::memory_order_relaxed), std::memory_order_release); }

  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  // Producer: bytes in the ring as of the last Commit that looked at the consumer.
  uint64_t FillBytes() const { return head_.load(std::memory_order_relaxed) - cached_tail_; }
  size_t capacity() const { return mask_ + 1; }

  std::atomic<uint32_t> state{kFree};
  std::atomic<uint32_t> tid{0};
  std::atomic<bool> wake_sent{false};
  // The buffer this thread wrote before this one (set when it grew): its records come first.
  std::atomic<ThreadBuffer*> predecessor{nullptr};
  char name[16] = {};         // last thread name emitted (writer-owned)
  bool name_emitted = false;  // writer-owned

 private:
  alignas(64) std::atomic<uint64_t> head_{0};
  uint64_t cached_tail_ = 0;  // producer's view of tail_
  uint64_t pending_pad_ = 0;
  bool lost_ = false;  // producer: records were dropped since the last one kept
  std::atomic<uint64_t> dropped_{0};
  alignas(64) std::atomic<uint64_t> tail_{0};
  uint8_t* data_;
  uint64_t mask_;
};

}  // namespace gsys::capture
